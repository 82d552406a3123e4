"""``serve``: the fact-checking service over HTTP (:mod:`fever_core.service`), run by uvicorn."""

from __future__ import annotations

import argparse
import ipaddress
import sys

from fever_core.cli.common import settings_from


def is_loopback(host: str) -> bool:
    """Whether ``host`` is reachable from this machine only (``localhost``, ``127.0.0.1``, ``::1``...)."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False  # another host name: it may resolve to any interface


def cmd_serve(args: argparse.Namespace) -> int:
    from fever_core.common.device import limit_cpu_threads
    from fever_core.service import ServiceConfig, create_app, make_server, raise_file_limit

    config = ServiceConfig(max_batch=args.max_batch, batch_wait_ms=args.batch_wait_ms, max_queue=args.max_queue,
                           max_instances=args.max_instances, max_body_bytes=args.max_body_bytes,
                           timeout_s=args.timeout, header_timeout_s=args.header_timeout,
                           body_timeout_s=args.body_timeout, max_connections=args.max_connections,
                           max_waiting_connections=args.max_waiting_connections,
                           max_text_sentences=args.max_text_sentences, split_timeout_s=args.split_timeout)
    if not config.api_key and not is_loopback(args.host):
        print(f"error: --host {args.host} would let anyone who can reach this machine check claims, and no API key is "
              "set. Set FEVER_API_KEY to a secret (clients send it in the X-API-Key header), or serve on 127.0.0.1 "
              "(the default) behind a proxy of your own.", file=sys.stderr)
        return 2
    settings = settings_from(args)
    corpora = args.corpus or [settings.corpus]
    app = create_app(settings, corpora, config)  # a missing corpus or model stops here, before anything loads
    limit_cpu_threads(settings.app_cpu_threads if args.threads is None else args.threads)

    raise_file_limit(config)
    server = make_server(app, config, args.host, args.port, args.verbose, timeout_graceful_shutdown=10)
    failures: list[str] = []

    def stop(message: str) -> None:
        failures.append(message)
        server.should_exit = True

    app.state.service.on_load_failure = stop
    key = "API key required (X-API-Key)" if config.api_key else "no API key"
    print(f"Serving {', '.join(corpora)} on http://{args.host}:{args.port} ({key}); docs at /docs. Loading the models "
          "and indexes: /health answers 200 once they are loaded.", file=sys.stderr)
    server.run()
    if failures:
        print(f"error: {failures[0]}", file=sys.stderr)
        return 2
    return 0


def add_commands(commands: argparse._SubParsersAction) -> None:
    from fever_core.service import ServiceConfig

    defaults = ServiceConfig(api_key="")
    p = commands.add_parser("serve", help="serve the checker over HTTP (POST /check, POST /predict; docs at /docs)",
                            description="Serve the checker over HTTP. Without FEVER_API_KEY it binds to 127.0.0.1 only; "
                            "with it, every request but /health and the docs needs the header X-API-Key: <key>.")
    p.add_argument("--corpus", action="append", help="a corpus to serve, built beforehand (repeat for several; the "
                   "first is the default; default: the settings' corpus, embedded)")
    p.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; another needs "
                   "FEVER_API_KEY)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--model", help="verifier model path or hub id (default: settings)")
    p.add_argument("--max-batch", type=int, default=defaults.max_batch,
                   help="claims verified together at most; 1 turns micro-batching off (default %(default)s)")
    p.add_argument("--batch-wait-ms", type=float, default=defaults.batch_wait_ms,
                   help="how long a claim waits for others to join its batch (default %(default)s)")
    p.add_argument("--max-queue", type=int, default=defaults.max_queue,
                   help="claims waiting at most; beyond, 503 with Retry-After (default %(default)s)")
    p.add_argument("--max-instances", type=int, default=defaults.max_instances,
                   help="instances per /predict request (default %(default)s)")
    p.add_argument("--max-body-bytes", type=int, default=defaults.max_body_bytes,
                   help="request body size (default %(default)s)")
    p.add_argument("--timeout", type=float, default=defaults.timeout_s,
                   help="seconds a request waits for its claims; beyond, 503 (default %(default)s)")
    p.add_argument("--header-timeout", type=float, default=defaults.header_timeout_s,
                   help="seconds a connection has to send a request's headers; beyond, it is closed (default "
                   "%(default)s)")
    p.add_argument("--body-timeout", type=float, default=defaults.body_timeout_s,
                   help="seconds a request's body may take once its headers are in; beyond, 408 (default %(default)s)")
    p.add_argument("--max-connections", type=int, default=defaults.max_connections,
                   help="requests in progress at once; beyond, 503 with Retry-After, /health excepted (default "
                   "%(default)s)")
    p.add_argument("--max-waiting-connections", type=int, default=defaults.max_waiting_connections,
                   help="connections waiting for a request (idle or half-sent); beyond, the one waiting longest is "
                   "closed (default %(default)s)")
    p.add_argument("--max-text-sentences", type=int, default=defaults.max_text_sentences,
                   help="sentences a /check-text text may have; beyond, 413 (default %(default)s)")
    p.add_argument("--split-timeout", type=float, default=defaults.split_timeout_s,
                   help="seconds splitting a /check-text text into sentences may take; beyond, 413 (default "
                   "%(default)s)")
    p.add_argument("--threads", type=int, default=None,
                   help="PyTorch CPU threads; 0: PyTorch's default, one per core (default: FEVER_APP_CPU_THREADS, 1, "
                   "which is fastest where other work shares the cores; on a machine of its own, try 0)")
    p.set_defaults(func=cmd_serve)
