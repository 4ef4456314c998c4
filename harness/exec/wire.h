/* wire.h - the frames a worker process sends its parent: targets, progress, results. */
#ifndef CLH_WIRE_H
#define CLH_WIRE_H

#include <stddef.h>

#include "base/util.h"
#include "exec/backend.h"
#include "results/result.h"

enum frame_type {
	FRAME_TARGET = 1, /* one target found by list_targets */
	FRAME_BEGIN,	  /* the worker starts (case, run): the timeout clock restarts */
	FRAME_RESULT,	  /* one result */
	FRAME_ERROR,	  /* the worker cannot go on: message */
	FRAME_END,	  /* the worker finished its job */
	FRAME_RESUME,	  /* the worker stops here: a fresh one goes on from a case */
	FRAME_SIGNATURE,  /* a kernel's parameters, from backend.inspect */
	FRAME_NEXT,	  /* the worker finished its case and waits to be told the next */
};

/* The largest payload a frame may carry, so that a worker cannot make its parent hold
 * gigabytes: room for the largest output buffer a check keeps. */
#define WIRE_MAX_PAYLOAD (1u << 30)

/* Appends one frame (type, length, payload) to `out`. */
void wire_target(struct strbuf *out, const struct target *t);
/* output_offset: how much the worker had printed when the run began. */
void wire_begin(struct strbuf *out, size_t case_index, size_t run, long long output_offset);
void wire_result(struct strbuf *out, const struct result *r);
void wire_message(struct strbuf *out, enum frame_type type, const char *message);
void wire_resume(struct strbuf *out, size_t case_index);
void wire_signature(struct strbuf *out, const struct kernel_sig *sig);

/* Splits the first whole frame off `buf`: returns its total length (0 if the frame is not
 * complete yet, -1 if malformed) with its type and payload. */
long wire_split(const char *buf, size_t len, enum frame_type *type, const char **payload,
		size_t *payload_len);
/* Decode a payload; -1 when it is malformed. A message is always set, to a placeholder
 * where the payload was malformed. A result's message and detail come cut to what the
 * reports hold (result_cut), whatever a worker sent. */
int wire_read_target(const char *p, size_t len, struct target *t);
int wire_read_begin(const char *p, size_t len, size_t *case_index, size_t *run,
		    long long *output_offset);
int wire_read_result(const char *p, size_t len, struct result *r);
int wire_read_message(const char *p, size_t len, char **message);
int wire_read_resume(const char *p, size_t len, size_t *case_index);
int wire_read_signature(const char *p, size_t len, struct kernel_sig *sig);

#endif
