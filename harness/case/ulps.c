/* ulps.c - the error bounds a kernel's built-in math calls earn, and float comparison
 * within them. */
#include "config.h"

#include "case/ulps.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/directives.h"

/* The OpenCL C 1.2 specification's bounds for single precision in the full profile
 * (section 7.4, table 7.1); the double ones are no looser. native_ functions' accuracy is
 * the implementation's own, and half_ ones are bounded at 8192 ulp. mad may be a fused
 * multiply-add or a multiply and an add, each rounded: the two differ by an ulp or so. */
static const struct {
	const char *name;
	double ulps;
} bounds[] = {
	{ "acos", 4 },	 { "acosh", 4 },   { "acospi", 5 },  { "asin", 4 },   { "asinh", 4 },
	{ "asinpi", 5 }, { "atan", 5 },	   { "atan2", 6 },   { "atanh", 5 },  { "atanpi", 5 },
	{ "atan2pi", 6 }, { "cbrt", 2 },   { "cos", 4 },     { "cosh", 4 },   { "cospi", 4 },
	{ "erfc", 16 },	 { "erf", 16 },	   { "exp", 3 },     { "exp2", 3 },   { "exp10", 3 },
	{ "expm1", 3 },	 { "hypot", 4 },   { "log", 3 },     { "log2", 3 },   { "log10", 3 },
	{ "log1p", 2 },	 { "pow", 16 },	   { "pown", 16 },   { "powr", 16 },  { "rootn", 16 },
	{ "rsqrt", 2 },	 { "sin", 4 },	   { "sincos", 4 },  { "sinh", 4 },   { "sinpi", 4 },
	{ "sqrt", 3 },	 { "tan", 5 },	   { "tanh", 5 },    { "tanpi", 6 },  { "tgamma", 16 },
	{ "lgamma", 16 }, { "lgamma_r", 16 }, { "mad", 2 },  { "divide", 2.5 }, { "recip", 2.5 },
};

/* An implementation-defined function's bound: as loose as the loosest the spec names. */
enum { NATIVE_ULPS = 8192 };

static double bound_of(const char *name, size_t len, const char **label)
{
	if (len > 7 && strncmp(name, "native_", 7) == 0) {
		*label = "native_";
		return NATIVE_ULPS;
	}
	if (len > 5 && strncmp(name, "half_", 5) == 0) {
		*label = "half_";
		return 8192;
	}
	for (size_t i = 0; i < sizeof bounds / sizeof bounds[0]; i++) {
		if (strlen(bounds[i].name) == len && strncmp(bounds[i].name, name, len) == 0) {
			*label = bounds[i].name;
			return bounds[i].ulps;
		}
	}
	return 0;
}

static void add_why(struct ulp_bound *out, const char *label, double ulps, unsigned times)
{
	size_t used = strlen(out->why);
	if (used + 40 >= sizeof out->why)
		return;
	if (times > 1)
		snprintf(out->why + used, sizeof out->why - used, "%s%s %g x%u", used ? " + " : "",
			 label, ulps, times);
	else
		snprintf(out->why + used, sizeof out->why - used, "%s%s %g", used ? " + " : "",
			 label, ulps);
}

void ulp_bound_of_source(const char *source, const char *options, struct ulp_bound *out)
{
	*out = (struct ulp_bound){ 0 };
	const char *labels[64];
	double each[64];
	unsigned times[64];
	size_t nlabels = 0;
	unsigned divides = 0;
	/* Comments blanked as the preprocessor reads them; literals are skipped below. */
	struct logical_text text;
	logical_text_read(source ? source : "", source ? strlen(source) : 0, &text);
	for (const char *p = text.text; p && *p;) {
		if (*p == '"') {
			for (p++; *p && *p != '"'; p++)
				if (*p == '\\' && p[1])
					p++;
			p += *p == '"';
			continue;
		}
		if (*p == '/') {
			divides++;
			p++;
			continue;
		}
		if (!isalpha((unsigned char)*p) && *p != '_') {
			p++;
			continue;
		}
		const char *start = p;
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		const char *after = p + strspn(p, " \t\n");
		if (*after != '(')
			continue;
		const char *label = NULL;
		double ulps = bound_of(start, (size_t)(p - start), &label);
		if (ulps <= 0)
			continue;
		size_t k = 0;
		while (k < nlabels && strcmp(labels[k], label) != 0)
			k++;
		if (k == nlabels && nlabels < 64) {
			labels[nlabels] = label;
			each[nlabels] = ulps;
			times[nlabels++] = 0;
		}
		if (k < nlabels) {
			times[k]++;
			out->ulps += ulps;
		}
	}
	logical_text_free(&text);
	for (size_t k = 0; k < nlabels; k++)
		add_why(out, labels[k], each[k], times[k]);
	/* A float divide is within 2.5 ulp; an integer one is exact, but which is which the
	 * text does not say, and the bound only ever loosens float comparisons. */
	if (divides) {
		out->ulps += 2.5 * divides;
		add_why(out, "divide", 2.5, divides);
	}
	bool relaxed = options && (strstr(options, "-cl-fast-relaxed-math") ||
				   strstr(options, "-cl-unsafe-math-optimizations"));
	bool fused = relaxed || (options && strstr(options, "-cl-mad-enable"));
	if (relaxed && out->ulps > 0) {
		/* The relaxed bounds (section 7.4 with -cl-fast-relaxed-math) are looser,
		 * some absolute near zero: four times the full profile's covers them. */
		out->ulps *= 4;
		size_t used = strlen(out->why);
		snprintf(out->why + used, sizeof out->why - used, ", x4 under relaxed math");
	}
	if (fused) {
		/* A multiply and an add may fuse, or be reordered, differently on each. */
		out->ulps += 2;
		size_t used = strlen(out->why);
		snprintf(out->why + used, sizeof out->why - used, "%s2 for fused multiply-adds",
			 used ? ", + " : "");
	}
}

/* One unit in the last place of x's magnitude, for the type's precision; the smallest
 * step there is at zero. */
static double ulp_of(enum elem_type type, double x)
{
	int precision = elem_precision(type);
	int min_exponent = type == ELEM_DOUBLE ? -1074 : type == ELEM_HALF ? -24 : -149;
	x = fabs(x);
	if (x == 0 || !isfinite(x))
		return ldexp(1, min_exponent);
	int exponent;
	frexp(x, &exponent);
	int e = exponent - precision;
	return ldexp(1, e < min_exponent ? min_exponent : e);
}

double ulps_apart(enum elem_type type, double a, double b)
{
	if ((isnan(a) && isnan(b)) || a == b)
		return 0;
	if (isnan(a) || isnan(b) || isinf(a) || isinf(b))
		return INFINITY;
	double larger = fabs(a) > fabs(b) ? a : b;
	return fabs(a - b) / ulp_of(type, larger);
}

bool within_ulps(enum elem_type type, double a, double b, double ulps)
{
	return ulps_apart(type, a, b) <= ulps;
}
