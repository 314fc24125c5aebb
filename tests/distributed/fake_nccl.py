"""A stand-in for `cupy.cuda.nccl` on the CPU: the module-level calls and constants and the
NcclCommunicator methods opgrad's NCCL backend uses, implemented with MPI on host memory
addressed by raw pointers (as NCCL addresses device memory). It checks the arguments NCCL
would trust (counts, types, ops, peers), so a backend bug shows up here."""

import ctypes

import numpy as np
from mpi4py import MPI

NCCL_INT8, NCCL_UINT8, NCCL_INT32, NCCL_INT64 = 0, 1, 2, 4  # the values of nccl.h
NCCL_FLOAT16, NCCL_FLOAT32, NCCL_FLOAT64 = 6, 7, 8
NCCL_SUM, NCCL_PROD, NCCL_MAX, NCCL_MIN = 0, 1, 2, 3

_TYPES = {
    NCCL_INT8: np.int8,
    NCCL_UINT8: np.uint8,
    NCCL_INT32: np.int32,
    NCCL_INT64: np.int64,
    NCCL_FLOAT16: np.float16,
    NCCL_FLOAT32: np.float32,
    NCCL_FLOAT64: np.float64,
}
_OPS = {NCCL_SUM: MPI.SUM, NCCL_PROD: MPI.PROD, NCCL_MAX: MPI.MAX, NCCL_MIN: MPI.MIN}
calls: list[str] = []  # every communicator call, for the tests to inspect


def get_unique_id():
    return tuple(int(x) for x in np.random.default_rng().integers(0, 255, 8))


def _view(ptr, count, datatype):
    dtype = np.dtype(_TYPES[datatype])
    raw = (ctypes.c_char * (count * dtype.itemsize)).from_address(ptr)
    return np.frombuffer(raw, dtype)


class FakeStream:
    ptr = 12345
    done = True

    def synchronize(self):
        pass


STREAM = FakeStream()


def current_stream():
    return STREAM


class NcclCommunicator:
    def __init__(self, ndev, commId, rank):
        self.comm = MPI.COMM_WORLD.Dup()
        assert ndev == self.comm.Get_size() and rank == self.comm.Get_rank(), (ndev, rank)
        ids = self.comm.allgather(commId)
        assert all(i == ids[0] for i in ids), "ranks got different unique ids"

    def _stream(self, stream):
        assert stream == STREAM.ptr, "collective not on the provided stream"

    def allReduce(self, sendbuf, recvbuf, count, datatype, op, stream):
        self._stream(stream)
        calls.append("allReduce")
        recv = _view(recvbuf, count, datatype)
        send = MPI.IN_PLACE if sendbuf == recvbuf else _view(sendbuf, count, datatype)
        self.comm.Allreduce(send, recv, _OPS[op])

    def broadcast(self, sendbuf, recvbuf, count, datatype, root, stream):
        self._stream(stream)
        calls.append("broadcast")
        assert sendbuf == recvbuf
        self.comm.Bcast(_view(recvbuf, count, datatype), root=root)

    def allGather(self, sendbuf, recvbuf, count, datatype, stream):
        self._stream(stream)
        calls.append("allGather")
        n = self.comm.Get_size()
        self.comm.Allgather(_view(sendbuf, count, datatype), _view(recvbuf, count * n, datatype))

    def reduceScatter(self, sendbuf, recvbuf, recvcount, datatype, op, stream):
        self._stream(stream)
        calls.append("reduceScatter")
        n = self.comm.Get_size()
        send = _view(sendbuf, recvcount * n, datatype)
        self.comm.Reduce_scatter_block(send, _view(recvbuf, recvcount, datatype), _OPS[op])

    def send(self, sendbuf, count, datatype, peer, stream):
        self._stream(stream)
        calls.append("send")
        self.comm.Send(_view(sendbuf, count, datatype), peer)

    def recv(self, recvbuf, count, datatype, peer, stream):
        self._stream(stream)
        calls.append("recv")
        self.comm.Recv(_view(recvbuf, count, datatype), peer)

    def destroy(self):
        self.comm.Free()
