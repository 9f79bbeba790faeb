"""``budgetlab demo``: replay the embedded sample data and print the summary."""

from __future__ import annotations

import argparse
from typing import Any

from .replay import add_output_options, add_slo_options, run_replay

__all__ = ["add_parser", "DEMO_TARGETS"]

#: The demo's per-type targets: the seed's 93 % for reCAPTCHA v2 and 97 % for Turnstile; image
#: captchas solve less often (about 90 % in the sample), so 88 %.
DEMO_TARGETS = {"recaptcha_v2": 0.93, "turnstile": 0.97, "image": 0.88}


def _cmd_demo(args: argparse.Namespace) -> int:
    from .. import datasets

    events = datasets.load("demo")
    incidents = datasets.load("demo_incidents")
    targets = None
    if args.by is None:
        args.by = "captcha_type"
        if args.target is None:  # per-type targets, as the seed advises (93 % reCAPTCHA v2, 97 % Turnstile)
            targets = dict(DEMO_TARGETS)
    print("budgetlab demo: the embedded sample (synthetic captcha-solving outcomes; see budgetlab.datasets)\n")
    run_replay(events, args, title="demo", incidents=incidents, targets=targets)
    if len(incidents):
        print("\nInjected incidents (ground truth)")
        show = incidents.copy()
        for c in ("start", "end"):
            show[c] = show[c].dt.strftime("%Y-%m-%d %H:%M")
        print(show.to_string(index=False))
    return 0


def add_parser(subparsers: Any) -> None:
    """Register ``budgetlab demo``."""
    demo = subparsers.add_parser("demo", help="replay the embedded sample data and print the summary")
    add_slo_options(demo, target=0.95, window="24h")
    add_output_options(demo)
    demo.set_defaults(func=_cmd_demo)
