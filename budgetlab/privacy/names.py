"""Column names that denote people or accounts: a group key so named is refused as personal data
even when its values look plain (login names, customer numbers), unless it is hashed, dropped or
declared not personal (see :func:`budgetlab.read_events`, ``not_personal=``)."""

from __future__ import annotations

import re

__all__ = ["PERSON_WORDS", "names_a_person"]

#: Words of column names that denote people or accounts (English, German, French, Spanish, Russian, as the
#: phone keywords): a group key so named is refused unless hashed or declared not personal.
PERSON_WORDS = frozenset({
    "user", "users", "username", "userid", "login", "logname", "account", "accounts", "email", "mail", "customer",
    "customers", "client", "clients", "person", "member", "owner", "employee", "patient", "firstname",
    "lastname", "fullname", "surname", "phone", "benutzer", "nutzer", "kunde", "konto", "vorname",
    "nachname", "utilisateur", "compte", "courriel", "prenom", "usuario", "cuenta", "cliente", "correo",
    "nombre", "apellido", "пользователь", "логин", "аккаунт", "клиент", "почта", "имя", "фамилия", "абонент",
})


def names_a_person(name: str) -> bool:
    """Whether a column name denotes people or accounts (by its words: ``user_id``, ``customerName``,
    ``first_name``, ``логин``); ``pod_name`` and ``region`` do not.

    >>> [names_a_person(n) for n in ("user", "customerId", "first_name", "Логин", "pod_name", "region")]
    [True, True, True, True, False, False]
    """
    words = re.sub(r"(?<=[a-zа-яё])(?=[A-ZА-ЯЁ])", "_", str(name)).casefold()
    tokens = [t for t in re.split(r"[\W_0-9]+", words) if t]
    pairs = ["".join(p) for p in zip(tokens, tokens[1:], strict=False)]
    return any(t in PERSON_WORDS for t in (*tokens, *pairs))
