/* check_npy.c - data files: NumPy's .npy headers of each version and byte order, raw .bin
 * files, and every way a file can fail to fit a buffer, said in words. */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/util.h"
#include "case/npy.h"
#include "check_suites.h"

/* A .npy file of `version` with `header` (padded as NumPy pads it) and `data`. */
static size_t make_npy(unsigned char *out, int version, const char *header, const void *data,
		       size_t data_len)
{
	size_t pre = version == 1 ? 10 : 12, hlen = strlen(header) + 1;
	size_t pad = (64 - (pre + hlen) % 64) % 64;
	memcpy(out, "\x93NUMPY", 6);
	out[6] = (unsigned char)version;
	out[7] = 0;
	uint32_t total = (uint32_t)(hlen + pad);
	memcpy(out + 8, &total, version == 1 ? 2 : 4);
	memcpy(out + pre, header, hlen - 1);
	memset(out + pre + hlen - 1, ' ', pad);
	out[pre + hlen - 1 + pad] = '\n';
	memcpy(out + pre + total, data, data_len);
	return pre + total + data_len;
}

START_TEST(test_headers_of_each_version_and_byte_order)
{
	unsigned char file[512];
	int32_t values[6] = { 1, -2, 3, -4, 5, -6 };
	struct data_file f;
	char *why = NULL;
	size_t len =
		make_npy(file, 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }",
			 values, sizeof values);
	ck_assert_msg(npy_parse(file, len, ELEM_INT, &f, &why) == 0, "A 1.0 file reads: %s", why);
	ck_assert_msg(f.count == 6 && ((int32_t *)f.data)[3] == -4 &&
			      strcmp(f.shape, "(2, 3)") == 0,
		      "Its six elements and its shape come through.");
	data_file_free(&f);

	len = make_npy(file, 2, "{'descr': '<i4', 'fortran_order': False, 'shape': (6,), }", values,
		       sizeof values);
	ck_assert_msg(npy_parse(file, len, ELEM_INT, &f, &why) == 0 && f.count == 6,
		      "A 2.0 file, with its 4-byte header length, reads.");
	data_file_free(&f);

	uint32_t big[2] = { __builtin_bswap32(7), __builtin_bswap32(0x3f800000) };
	len = make_npy(file, 1, "{'descr': '>u4', 'fortran_order': False, 'shape': (2,), }", big,
		       sizeof big);
	ck_assert_msg(npy_parse(file, len, ELEM_UINT, &f, &why) == 0 &&
			      ((uint32_t *)f.data)[0] == 7,
		      "Big-endian elements are swapped into host order.");
	data_file_free(&f);

	len = make_npy(file, 3, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", big, 4);
	ck_assert_msg(npy_parse(file, len, ELEM_FLOAT, &f, &why) == 0 && f.count == 1,
		      "A 3.0 file of one scalar element reads.");
	data_file_free(&f);
}
END_TEST

/* Each mistake, and the words that must name it. */
START_TEST(test_every_mistake_is_named)
{
	unsigned char file[512];
	int32_t values[4] = { 0 };
	static const struct {
		int version;
		const char *header;
		size_t data_len;
		enum elem_type want;
		const char *message;
	} bad[] = {
		{ 1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }", 16, ELEM_FLOAT,
		  "dtype '<f8', but the buffer is float ('<f4')" },
		{ 1, "{'descr': '<i4', 'fortran_order': True, 'shape': (2, 2), }", 16, ELEM_INT,
		  "Fortran order" },
		{ 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (5,), }", 16, ELEM_INT,
		  "shape (5,) holds 5 elements of 4 bytes, but the file has 16 bytes" },
		{ 1, "{'descr': '<i4', 'shape': (4,), }", 16, ELEM_INT,
		  "without descr, fortran_order and shape" },
		{ 1, "{'descr': '<i4', 'fortran_order': False, 'shape': (-4,), }", 16, ELEM_INT,
		  "a .npy header NumPy did not write" },
		{ 7, "{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }", 16, ELEM_INT,
		  "version 7.0" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		size_t len = make_npy(file, bad[i].version == 7 ? 1 : bad[i].version, bad[i].header,
				      values, bad[i].data_len);
		if (bad[i].version == 7)
			file[6] = 7;
		struct data_file f;
		char *why = NULL;
		ck_assert_msg(npy_parse(file, len, bad[i].want, &f, &why) < 0 && why &&
				      strstr(why, bad[i].message),
			      "Mistake %zu is named as \"%s\", not \"%s\".", i + 1, bad[i].message,
			      why ? why : "(nothing)");
		free(why);
	}
	struct data_file f;
	char *why = NULL;
	ck_assert_msg(npy_parse((const unsigned char *)"hello", 5, ELEM_INT, &f, &why) < 0 &&
			      strstr(why, "not a .npy file"),
		      "Text is not a .npy file.");
	free(why);
}
END_TEST

START_TEST(test_raw_files_hold_whole_elements)
{
	char *path = test_data_path("data/ramp_64.bin");
	struct data_file f;
	char *why = NULL;
	ck_assert_msg(data_file_read(path, ELEM_INT, &f, &why) == 0 && f.count == 64 &&
			      ((int32_t *)f.data)[5] == 15,
		      "64 little-endian ints read as they are.");
	data_file_free(&f);
	free(path);

	char tmp[] = "/tmp/check_npy_XXXXXX.bin";
	int fd = mkstemps(tmp, 4);
	ck_assert_msg(fd >= 0 && write(fd, "12345", 5) == 5, "The test writes a file.");
	close(fd);
	ck_assert_msg(data_file_read(tmp, ELEM_FLOAT, &f, &why) < 0 &&
			      strstr(why, "5 bytes, which is no whole number of 4-byte float"),
		      "Five bytes are no whole number of floats: %s", why);
	free(why);
	unlink(tmp);
}
END_TEST

START_TEST(test_written_files_read_back)
{
	char tmp[] = "/tmp/check_npy_XXXXXX.npy";
	int fd = mkstemps(tmp, 4);
	ck_assert_msg(fd >= 0, "The test makes a file.");
	close(fd);
	const float values[6] = { 1.5f, -2, 3, 4, 5, 6 };
	char *why = NULL;
	ck_assert_msg(npy_write(tmp, ELEM_FLOAT, 3, 2, values, &why) == 0, "Written: %s", why);
	struct data_file f;
	ck_assert_msg(data_file_read(tmp, ELEM_FLOAT, &f, &why) == 0 && f.count == 6 &&
			      strcmp(f.shape, "(2, 3)") == 0 && ((float *)f.data)[0] == 1.5f &&
			      ((float *)f.data)[5] == 6,
		      "Two float3 values read back as six floats of shape (2, 3): %s", why);
	data_file_free(&f);
	const double ramp[1] = { 0.25 };
	ck_assert_msg(npy_write(tmp, ELEM_DOUBLE, 1, 1, ramp, &why) == 0 &&
			      data_file_read(tmp, ELEM_DOUBLE, &f, &why) == 0 && f.count == 1 &&
			      strcmp(f.shape, "(1,)") == 0 && ((double *)f.data)[0] == 0.25,
		      "One double reads back as shape (1,).");
	data_file_free(&f);
	FILE *raw = fopen(tmp, "rb");
	unsigned char head[10];
	ck_assert_msg(raw && fread(head, 1, 10, raw) == 10 && (10 + head[8] + 256 * head[9]) % 64 == 0,
		      "The data starts at a multiple of 64 bytes, as NumPy aligns it.");
	fclose(raw);
	unlink(tmp);
}
END_TEST

Suite *npy_suite(void)
{
	Suite *s = suite_create("npy");
	TCase *tc = tcase_create("npy");
	tcase_add_test(tc, test_headers_of_each_version_and_byte_order);
	tcase_add_test(tc, test_every_mistake_is_named);
	tcase_add_test(tc, test_raw_files_hold_whole_elements);
	tcase_add_test(tc, test_written_files_read_back);
	suite_add_tcase(s, tc);
	return s;
}
