/* struct_fields_through_macros.cl - a struct buffer whose field types come from a typedef
 * and from a macro the build defines (-D REAL=double), so its layout is known only after
 * the preprocessor.
 */
typedef uint count_t;

typedef struct {
	REAL weight;
	count_t hits;
	char tag;
} cell;

kernel void bump(global cell *cells)
{
	size_t i = get_global_id(0);
	cells[i].hits += 1;
	cells[i].weight *= 2;
}

/* What tests/conformance_judge runs and expects:
 * check: --kernel bump --global 16 --local 8 -D REAL=double --device pocl,oclgrind
 */
