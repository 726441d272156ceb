#!/usr/bin/env python3
"""Call a running `tigris serve` from Python (Debian: python3-grpcio, python3-protobuf).

    python3 examples/python/tigris_client.py [--tls-ca CA.pem] [--token TOKEN] 127.0.0.1:50051 PLAN.tgrs [INPUT.bin]

Inspects the plan, runs it on INPUT.bin (or zeros of the right size) and
prints the outputs' sizes and the run's stats. --tls-ca: TLS, trusting the
server's certificate if this CA signed it; --token: the bearer token of a
server started with --token-file (docs/service.md). The message classes are made
from proto/tigris/v1/tigris.proto with protoc on first use; no gRPC stub
generator is needed, the calls name their methods directly.
"""
import os
import subprocess
import sys
import tempfile

import grpc

HERE = os.path.dirname(os.path.abspath(__file__))
PROTO_ROOT = os.path.join(HERE, "..", "..", "proto")


def load_messages():
    out = os.path.join(tempfile.gettempdir(), "tigris_py_proto")
    if not os.path.exists(os.path.join(out, "tigris", "v1", "tigris_pb2.py")):
        os.makedirs(out, exist_ok=True)
        subprocess.run(["protoc", "--python_out=" + out, "-I", PROTO_ROOT,
                        os.path.join(PROTO_ROOT, "tigris", "v1", "tigris.proto")], check=True)
    sys.path.insert(0, out)
    from tigris.v1 import tigris_pb2  # noqa: E402
    return tigris_pb2


def main():
    args, tls_ca, token = [], None, None
    argv = iter(sys.argv[1:])
    for a in argv:
        if a == "--tls-ca":
            tls_ca = next(argv, None)
        elif a == "--token":
            token = next(argv, None)
        else:
            args.append(a)
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 1
    pb = load_messages()
    address, plan_path = args[0], args[1]
    plan = open(plan_path, "rb").read()
    if tls_ca:
        channel = grpc.secure_channel(address, grpc.ssl_channel_credentials(open(tls_ca, "rb").read()))
    else:
        channel = grpc.insecure_channel(address)
    # Per-call metadata: gRPC's call credentials are never sent over plaintext.
    metadata = [("authorization", "Bearer " + token)] if token else None

    def unary(name, req, resp_cls):
        call = channel.unary_unary("/tigris.v1.Tigris/" + name,
                                   request_serializer=lambda m: m.SerializeToString(),
                                   response_deserializer=resp_cls.FromString)
        return call(req, timeout=30, metadata=metadata)

    info = unary("Inspect", pb.InspectRequest(plan=plan), pb.InspectResponse)
    print("plan %s: schema %d, %s, %d ops in %d stages, fast arena %d bytes"
          % (info.model_name, info.schema, info.data_dtype, info.num_ops, info.num_stages,
             info.fast_arena_required))
    if len(args) > 2:
        inputs = [open(args[2], "rb").read()]
    else:
        inputs = [bytes(t.declared_bytes) for t in info.inputs]
    try:
        run = unary("Run", pb.RunRequest(plan=plan, inputs=inputs), pb.RunResponse)
    except grpc.RpcError as e:
        print("run refused: %s: %s" % (e.code().name, e.details()), file=sys.stderr)
        return 2
    print("outputs: %s bytes; fast peak %d of %d; backend %s; %.3f ms"
          % ([len(o) for o in run.outputs], run.fast_peak, run.fast_required, run.backend, run.run_ms))
    print("stats: loads %d B, spills %d B, tiles %d" % (run.stats.loads_bytes, run.stats.spills_bytes,
                                                       run.stats.total_tiles))
    return 0


if __name__ == "__main__":
    sys.exit(main())
