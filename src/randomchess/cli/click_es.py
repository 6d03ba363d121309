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
import inspect
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
    "required": "obligatorio",
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


def language_option(ctx: click.Context, param: click.Parameter, value: str) -> str:
    """The callback of a group's eager ``--lang``: the language holds from the moment the option
    is read, so ``--lang es --help`` (on the group or a sub-command) is in Spanish."""
    set_language(value or "en")
    return value


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
    "[COMMAND] [ARGS]...": "[ORDEN] [ARGUMENTOS]...",
    "EVENT": "EVENTO", "ROUND": "RONDA", "RND": "RONDA", "BOARD": "TABLERO",
    "RESULT": "RESULTADO", "NAME": "NOMBRE", "PLAYER": "JUGADOR", "FILE": "FICHERO",
    "TEXT": "TEXTO", "INTEGER": "ENTERO", "FLOAT": "DECIMAL", "FILENAME": "FICHERO",
    "DIGITS": "CIFRAS", "GAMES": "PARTIDAS", "GAME": "PARTIDA", "SPEC": "FORMA",
    "LIST": "LISTA", "MATCH": "ENCUENTRO", "PAWNS": "PEONES", "RANGE": "INTERVALO",
    "REASON": "MOTIVO", "SECONDS": "SEGUNDOS",
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


def _help(text: str) -> str:
    """A command's or an option's help ``text`` in the session's language (the Spanish of
    :mod:`randomchess.cli.help_es`, or the English when it has none)."""
    if _STATE["lang"] != "es":
        return text
    from randomchess.cli.help_es import spanish_help

    return spanish_help(text) or text


def _short(text: str, limit: int) -> str:
    """A command's line in its group's list: its first sentence, cut to ``limit`` at a word
    (as click shortens the English one)."""
    words = text.split("\n\n")[0].split()
    line = ""
    for word in words:
        candidate = f"{line} {word}".strip()
        if len(candidate) > limit:
            return line + "..."
        line = candidate
        if word.endswith("."):
            break
    return line


class _LangHelp(click.Command):
    """``--help`` pages in the session's language: the command's text, its line in a group's
    list of commands, and every option's help and argument names."""

    def format_help_text(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        if self.help is not None and _STATE["lang"] == "es":
            english = inspect.cleandoc(self.help).partition("\f")[0]
            # paragraph by paragraph: a "\b" block of examples is its own entry
            text = "\n\n".join(_help(para) for para in english.split("\n\n"))
            formatter.write_paragraph()
            with formatter.indentation():
                formatter.write_text(text)
            return
        super().format_help_text(ctx, formatter)

    def get_short_help_str(self, limit: int = 45) -> str:
        if self.short_help is not None and _STATE["lang"] == "es":
            return _help(inspect.cleandoc(self.short_help))
        if self.help and _STATE["lang"] == "es":
            return _short(_help(inspect.cleandoc(self.help).split("\n\n")[0]), limit)
        return super().get_short_help_str(limit)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        opts = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is None or isinstance(param, click.Argument):
                continue
            names, text = record
            english = getattr(param, "help", None)
            if english and text.startswith(english):
                spanish = _help(english)
                if spanish == english:  # click's own options (--help) speak through gettext
                    spanish = translate(english)
                text = spanish + text[len(english):]
            opts.append((metavar(names) if _STATE["lang"] == "es" else names, text))
        if opts:
            with formatter.section(translate("Options")):
                formatter.write_dl(opts)
        if isinstance(self, click.Group):
            self.format_commands(ctx, formatter)


class LangCommand(_LangHelp):
    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [metavar(p) for p in super().collect_usage_pieces(ctx)]


class LangGroup(_LangHelp, click.Group):
    """A group with a ``--lang`` option: its choice holds from the moment the group runs, so
    an unknown sub-command and every sub-command's usage errors are in that language."""

    command_class = LangCommand

    def collect_usage_pieces(self, ctx: click.Context) -> list[str]:
        return [metavar(p) for p in super().collect_usage_pieces(ctx)]

    def invoke(self, ctx: click.Context) -> Any:
        set_language(str(ctx.params.get("lang") or "en"))
        return super().invoke(ctx)
