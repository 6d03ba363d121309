"""Click's own messages (usage lines, missing or bad arguments, "Try ... for help") in the
language a command group was asked for with ``--lang`` (issue 29: "a Spanish CLI session
shows no English text").

Click marks its messages for GNU gettext (``from gettext import gettext as _`` in each of its
modules) but reads the catalogue through the process's locale environment.  A session's
language here is an option, not the locale, so :func:`install` gives those modules a
translator that consults :data:`_STATE` instead: English (click's own text, unchanged) until a
group's ``--lang es`` calls :func:`set_language`; :meth:`randomchess.cli.LazyGroup.main`
resets it to English at the start of every invocation.  tests/test_cli_spanish.py checks the
catalogue against the installed click: a message click no longer uses fails there.
"""

from __future__ import annotations

import gettext
import re
from types import ModuleType
from typing import Any

import click

# click's message ids (exactly as click writes them) -> Spanish.  The placeholders are
# click's; a translation may leave one out (str.format ignores unused names).
SPANISH: dict[str, str] = {
    "Usage:": "Uso:",
    "Options": "Opciones",
    "Commands": "Órdenes",
    "Positional arguments": "Argumentos",
    "Show this message and exit.": "Muestra esta ayuda y termina.",
    "Show the version and exit.": "Muestra la versión y termina.",
    "%(prog)s, version %(version)s": "%(prog)s, versión %(version)s",
    "Error: {message}": "Error: {message}",
    "Try '{command} {option}' for help.": "Pruebe '{command} {option}' para ver la ayuda.",
    "Missing command.": "Falta la orden.",
    "Missing argument": "Falta el argumento",
    "Missing option": "Falta la opción",
    "Missing parameter": "Falta el parámetro",
    "Missing parameter: {param_name}": "Falta el parámetro: {param_name}",
    "No such command {name!r}.": "No existe la orden {name!r}.",
    "No such option {name!r}.": "No existe la opción {name!r}.",
    "Invalid value for {param_hint}: {message}": "Valor no válido para {param_hint}: {message}",
    "Invalid value: {message}": "Valor no válido: {message}",
    "Option {name!r} does not take a value.": "La opción {name!r} no lleva valor.",
    "Argument {name!r} takes {nargs} values.": "El argumento {name!r} lleva {nargs} valores.",
    "{value!r} is not a valid {number_type}.": "{value!r} no es un número válido.",
    "{value} is not in the range {range}.": "{value} está fuera del intervalo {range}.",
    "{value!r} is not a valid boolean. Recognized values: {states}":
        "{value!r} no es un valor sí/no válido. Valores admitidos: {states}",
    "Could not open file {filename!r}: {message}":
        "No se pudo abrir el fichero {filename!r}: {message}",
    "{name} {filename!r} does not exist.": "{filename!r} no existe.",
    "{name} {filename!r} is a directory.": "{filename!r} es una carpeta.",
    "{name} {filename!r} is a file.": "{filename!r} es un fichero.",
    "{name} {filename!r} is not readable.": "{filename!r} no se puede leer.",
    "{name} {filename!r} is not writable.": "{filename!r} no se puede escribir.",
    "Aborted!": "¡Cancelado!",
    "default: {default}": "por defecto: {default}",
    "env var: {var}": "variable de entorno: {var}",
    "unknown error": "error desconocido",
}

# (singular, plural) -> (Spanish singular, Spanish plural)
SPANISH_PLURAL: dict[tuple[str, str], tuple[str, str]] = {
    ("Got unexpected extra argument ({args})", "Got unexpected extra arguments ({args})"):
        ("Sobra un argumento ({args})", "Sobran argumentos ({args})"),
    ("Option {name!r} requires an argument.", "Option {name!r} requires {nargs} arguments."):
        ("La opción {name!r} necesita un valor.", "La opción {name!r} necesita {nargs} valores."),
    ("{value!r} is not {choice}.", "{value!r} is not one of {choices}."):
        ("{value!r} no es {choice}.", "{value!r} no es ninguno de {choices}."),
    ("Did you mean {possibility}?", "(Did you mean one of: {possibilities}?)"):
        ("¿Quería decir {possibility}?", "(¿Quería decir uno de: {possibilities}?)"),
    ("Takes {nargs} values but 1 was given.", "Takes {nargs} values but {len} were given."):
        ("Lleva {nargs} valores pero se dio 1.", "Lleva {nargs} valores pero se dieron {len}."),
}

_STATE = {"lang": "en"}


def set_language(lang: str) -> None:
    """Click's messages from now on in ``lang`` ("en" or "es")."""
    _STATE["lang"] = lang


def translate(message: str) -> str:
    if _STATE["lang"] == "es" and message in SPANISH:
        return SPANISH[message]
    return gettext.gettext(message)


def translate_plural(singular: str, plural: str, n: int) -> str:
    pair = SPANISH_PLURAL.get((singular, plural)) if _STATE["lang"] == "es" else None
    if pair is not None:
        return pair[0] if n == 1 else pair[1]
    return gettext.ngettext(singular, plural, n)


def _click_modules() -> list[ModuleType]:
    import click.core
    import click.decorators
    import click.exceptions
    import click.formatting
    import click.parser
    import click.termui
    import click.types

    return [click.core, click.decorators, click.exceptions, click.formatting, click.parser,
            click.termui, click.types]


def install() -> None:
    """Route click's message lookups through :func:`translate` (idempotent)."""
    for module in _click_modules():
        if getattr(module, "_", None) is not None:
            module._ = translate  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) is not None:
            module.ngettext = translate_plural  # type: ignore[attr-defined]


# Argument names and usage words click prints as they are written (not through gettext).
METAVARS: dict[str, str] = {
    "[OPTIONS]": "[OPCIONES]", "COMMAND [ARGS]...": "ORDEN [ARGUMENTOS]...",
    "EVENT": "EVENTO", "ROUND": "RONDA", "RND": "RONDA", "BOARD": "TABLERO",
    "RESULT": "RESULTADO", "NAME": "NOMBRE", "PLAYER": "JUGADOR", "FILE": "FICHERO",
    "TEXT": "TEXTO", "INTEGER": "ENTERO",
}


def metavar(word: str) -> str:
    """``word`` (an argument's name in a usage line) in the session's language."""
    if _STATE["lang"] != "es":
        return word
    if word in METAVARS:
        return METAVARS[word]
    return re.sub(r"[A-Z][A-Z_]*", lambda m: METAVARS.get(m.group(0), m.group(0)), word)


class LangArgument(click.Argument):
    """An argument whose name in usage lines and errors follows the session's language."""

    def make_metavar(self, ctx: click.Context) -> str:
        return metavar(super().make_metavar(ctx))


class LangCommand(click.Command):
    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [metavar(p) for p in super().collect_usage_pieces(ctx)]


class LangGroup(click.Group):
    """A group with a ``--lang`` option: its choice holds from the moment the group runs, so
    an unknown sub-command and every sub-command's usage errors are in that language."""

    command_class = LangCommand

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [metavar(p) for p in super().collect_usage_pieces(ctx)]

    def invoke(self, ctx: click.Context) -> Any:
        set_language(str(ctx.params.get("lang") or "en"))
        return super().invoke(ctx)
