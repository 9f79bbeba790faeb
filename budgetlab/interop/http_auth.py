"""Credentials of a Prometheus read: given one way, and a refusal that says what was given
(:class:`Credentials`).

Credentials come as ``user:password@`` in the URL (sent as Basic auth) or as an
``Authorization`` header (``headers=``, ``--header``); both at once is refused before anything is
sent, since one would silently replace the other. A 401 or 403 answer is said according to what
was sent: no credentials (give them), credentials (they were refused: check them), other headers
only (named, never their values). The flags it names are chosen when the client is made, in the
caller's thread, so the command line's are named whichever thread meets the answer.
"""

from __future__ import annotations

import base64
import urllib.parse
from dataclasses import dataclass

from .._util.words import say
from ..errors import ConfigError

__all__ = ["Credentials"]


@dataclass(frozen=True)
class Credentials:
    """How the credentials were given (``"url"``, ``"header"`` or ``""``) and the names of the
    other extra headers sent."""

    given: str
    others: tuple[str, ...] = ()
    header_flag: str = "headers="  # the words of the caller: --header on the command line
    url_flag: str = "url="

    @classmethod
    def of(cls, parts: urllib.parse.SplitResult, headers: dict[str, str],
           extra: list[str]) -> Credentials:
        """The credentials of the URL ``parts`` put into ``headers`` (Basic auth), or those of
        an ``Authorization`` header among ``extra`` (the names given); both refused.

        >>> h = {}
        >>> Credentials.of(urllib.parse.urlsplit("http://u:p@h:9090"), h, []).given, h
        ('url', {'Authorization': 'Basic dTpw'})
        >>> Credentials.of(urllib.parse.urlsplit("http://u:p@h"), {}, ["authorization"])
        Traceback (most recent call last):
        ...
        budgetlab.errors.ConfigError: url= holds user:password@ and headers= an Authorization \
header: give the credentials one way, not both (one would replace the other).
        """
        header = any(k.lower() == "authorization" for k in extra)
        others = tuple(k for k in extra if k.lower() != "authorization")
        flags = say("headers=", "--header"), say("url=", "--prometheus")
        if parts.username is None:
            return cls("header" if header else "", others, *flags)
        if header:
            raise ConfigError(f"{flags[1]} holds user:password@ and "
                              f"{flags[0]} an Authorization header: give the "
                              "credentials one way, not both (one would replace the other).")
        user = urllib.parse.unquote(parts.username)
        pwd = urllib.parse.unquote(parts.password or "")
        headers["Authorization"] = "Basic " + base64.b64encode(f"{user}:{pwd}".encode()).decode()
        return cls("url", others, *flags)

    def refusal(self, where: str, status: int, message: str) -> str:
        """The words for a 401 / 403 answer (``message``: the server's own, or "").

        >>> print(Credentials("header").refusal("http://h", 401, ""))
        Prometheus at http://h refused the credentials given (HTTP 401); check the value of the \
Authorization header (headers=).
        >>> print(Credentials("url").refusal("http://h", 403, ""))
        Prometheus at http://h refused access with the credentials given (HTTP 403); check the \
user and password in the URL (url=), and that they are allowed to read this server.
        """
        head = f"Prometheus at {where}"
        if self.given:
            what = "refused the credentials given" if status == 401 else \
                "refused access with the credentials given"
            check = (f"the value of the Authorization header ({self.header_flag})"
                     if self.given == "header" else
                     f"the user and password in the URL ({self.url_flag})")
            allowed = ", and that they are allowed to read this server" if status == 403 else ""
            return f"{head} {what} (HTTP {status}){message}; check {check}{allowed}."
        given = f" with the headers given ({', '.join(self.others)})" if self.others else ""
        fix = "check their values, or give" if self.others else "give"
        return (f"{head} refused access{given} (HTTP {status}){message}; {fix} credentials with "
                f"{self.header_flag} 'Authorization: ...' or user:password@ in the "
                "URL.")
