#!/usr/bin/env python3
"""pyopencl_host.py - a PyOpenCL script for tests/capture.sh: a saxpy on floats and a
histogram of small integers with local atomics, on the first device of the first
platform (PoCL in make check)."""
import numpy as np
import pyopencl as cl

SOURCE = """
kernel void saxpy(global float *y, global const float *x, float a)
{
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

kernel void histogram(global const uchar *values, global uint *bins, local uint *counts)
{
    size_t lid = get_local_id(0);
    if (lid < BINS)
        counts[lid] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&counts[values[get_global_id(0)] % BINS]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < BINS)
        atomic_add(&bins[lid], counts[lid]);
}
"""

def main():
    platform = cl.get_platforms()[0]
    device = platform.get_devices()[0]
    context = cl.Context([device])
    queue = cl.CommandQueue(context)
    program = cl.Program(context, SOURCE).build(options=["-DBINS=16"])
    n = 4096
    x = np.arange(n, dtype=np.float32) * 0.5
    y = np.ones(n, dtype=np.float32)
    mf = cl.mem_flags
    x_buf = cl.Buffer(context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=x)
    y_buf = cl.Buffer(context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=y)
    program.saxpy(queue, (n,), (128,), y_buf, x_buf, np.float32(2.0))
    values = (np.arange(n) * 7 % 251).astype(np.uint8)
    v_buf = cl.Buffer(context, mf.READ_ONLY | mf.COPY_HOST_PTR, hostbuf=values)
    bins = np.zeros(16, dtype=np.uint32)
    b_buf = cl.Buffer(context, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=bins)
    program.histogram(queue, (n,), (64,), v_buf, b_buf, cl.LocalMemory(16 * 4))
    cl.enqueue_copy(queue, y, y_buf)
    cl.enqueue_copy(queue, bins, b_buf)
    assert y[3] == 2.0 * 1.5 + 1.0 and bins.sum() == n
    print("pyopencl_host: saxpy and histogram done")

if __name__ == "__main__":
    main()
