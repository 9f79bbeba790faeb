"""Extra HTTP headers checked before anything is sent: :func:`check_header_name`.

A header's name is an RFC 9110 token (section 5.1: ``field-name = token``; section 5.6.2:
``token = 1*tchar``, ``tchar`` the letters, digits and ``!#$%&'*+-.^_`|~``). A name outside that
set (a space, a colon, a non-ASCII letter) is refused here: sent, it earns a 400 that would be
read as the server refusing the query. The value is never shown: it may be a secret.
"""

from __future__ import annotations

import re

from ..errors import ConfigError
from ..privacy import shown

__all__ = ["check_header_name"]

#: RFC 9110 section 5.6.2: ``token = 1*tchar``.
_TOKEN = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")


def check_header_name(name: str, where: str) -> str:
    """``name`` when it is a valid header name (an RFC 9110 token), else a
    :class:`~budgetlab.errors.ConfigError` that names ``where`` (``--header``, ``headers=``)
    and the name, never the value.

    >>> check_header_name("X-Scope-OrgID", "--header")
    'X-Scope-OrgID'
    >>> check_header_name("Bad Name", "--header")
    Traceback (most recent call last):
    ...
    budgetlab.errors.ConfigError: --header: 'Bad Name' is not a valid header name (a name holds
    only letters, digits and !#$%&'*+-.^_`|~: no space, no colon).
    """
    if _TOKEN.fullmatch(name):
        return name
    raise ConfigError(f"{where}: {shown(name)} is not a valid header name (a name holds only "
                      "letters, digits and !#$%&'*+-.^_`|~: no space, no colon).")
