"""The one lifetime pattern of the objects that hold wasmtime or host resources (`Sandbox`,
`Session`, `GuestProgram`, `LiveInstance`): `close()` releases them once, whoever calls it
and however often; `closed` says whether it was called; a `with` block closes on the way out.
"""

from __future__ import annotations

import abc
import contextlib
from types import TracebackType
from typing import Any, Self


class Closeable(abc.ABC):
    """A subclass implements `_release()` (called once, by the first `close()`), and may
    give the lock under which its other methods read `closed` (`_lifetime_lock`), so that
    nothing new starts once `close()` has begun."""

    _closed: bool = False

    def _lifetime_lock(self) -> contextlib.AbstractContextManager[Any]:
        return contextlib.nullcontext()

    @abc.abstractmethod
    def _release(self) -> None:
        """Free what the object holds (called once, by the first `close()`)."""

    def close(self) -> None:
        """Release what this object holds. Idempotent and thread-safe."""
        with self._lifetime_lock():
            if self._closed:
                return
            self._closed = True
        self._release()

    @property
    def closed(self) -> bool:
        """Whether `close()` was called."""
        return self._closed

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
