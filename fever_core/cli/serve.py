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
    from fever_core.service import ServiceConfig, create_app, make_server, raise_file_limit, service_flags

    config = ServiceConfig(**{f.name: getattr(args, f.name) for f in service_flags()})
    if not config.api_key and not is_loopback(args.host):
        print(
            f"error: --host {args.host} would let anyone who can reach this machine check claims, and no API key is "
            "set. Set FEVER_API_KEY to a secret (clients send it in the X-API-Key header), or serve on 127.0.0.1 "
            "(the default) behind a proxy of your own.",
            file=sys.stderr,
        )
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
    print(
        f"Serving {', '.join(corpora)} on http://{args.host}:{args.port} ({key}); docs at /docs. Loading the models "
        "and indexes: /health answers 200 once they are loaded.",
        file=sys.stderr,
    )
    server.run()
    if failures:
        print(f"error: {failures[0]}", file=sys.stderr)
        return 2
    return 0


def add_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from fever_core.service import service_flags

    p = commands.add_parser(
        "serve",
        help="serve the checker over HTTP (POST /check, POST /predict; docs at /docs)",
        description="Serve the checker over HTTP. Without FEVER_API_KEY it binds to 127.0.0.1 only; "
        "with it, every request but /health and the docs needs the header X-API-Key: <key>.",
    )
    p.add_argument(
        "--corpus",
        action="append",
        help="a corpus to serve, built beforehand (repeat for several; the "
        "first is the default; default: the settings' corpus, embedded)",
    )
    p.add_argument(
        "--host", default="127.0.0.1", help="address to bind (default 127.0.0.1; another needs FEVER_API_KEY)"
    )
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--model", help="verifier model path or hub id (default: settings)")
    for flag in service_flags():
        p.add_argument(
            flag.metadata["flag"],
            dest=flag.name,
            type={"int": int, "float": float}[flag.type],
            default=flag.default,
            help=f"{flag.metadata['help']} (default %(default)s)",
        )
    p.add_argument(
        "--threads",
        type=int,
        default=None,
        help="PyTorch CPU threads; 0: PyTorch's default, one per core (default: FEVER_APP_CPU_THREADS, 1, "
        "which is fastest where other work shares the cores; on a machine of its own, try 0)",
    )
    p.set_defaults(func=cmd_serve)
