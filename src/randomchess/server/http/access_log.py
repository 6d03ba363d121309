"""uvicorn's access log line, written for less (issue 36).

Every request logs one line, and under load uvicorn's ``AccessFormatter`` was a visible part
of the server's CPU: it copies the log record twice (once itself, once in its parent) to add
three fields, then formats them through the ``%`` template.  ``AccessFormatter`` here writes
the same line directly when it is uvicorn's default template without colours (a log going to
a file or a journal); with colours (a terminal) or another template it is uvicorn's own.
``LOG_CONFIG`` is uvicorn's logging configuration with this formatter for the access log.
"""

from __future__ import annotations

import copy
import http
import logging
from typing import Any

from uvicorn.config import LOGGING_CONFIG
from uvicorn.logging import AccessFormatter as UvicornAccessFormatter

_KNOWN_FORMAT = '%(levelprefix)s %(client_addr)s - "%(request_line)s" %(status_code)s'
# "200 OK" for every status code http knows; others are "599 " as in uvicorn.
_STATUS = {int(s): f"{int(s)} {s.phrase}" for s in http.HTTPStatus}


class AccessFormatter(UvicornAccessFormatter):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.direct = not self.use_colors and self._fmt == _KNOWN_FORMAT

    def formatMessage(self, record: logging.LogRecord) -> str:
        if not self.direct:
            return super().formatMessage(record)
        client_addr, method, full_path, http_version, status_code = record.args  # type: ignore[misc]
        code = int(status_code)  # type: ignore[arg-type]
        level = record.levelname
        return (f'{level}:{" " * (8 - len(level))} {client_addr} - '
                f'"{method} {full_path} HTTP/{http_version}" '
                f'{_STATUS.get(code) or f"{code} "}')


LOG_CONFIG: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
LOG_CONFIG["formatters"]["access"]["()"] = f"{__name__}.AccessFormatter"
