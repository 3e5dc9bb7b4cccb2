"""The sandbox worker: one student's strategy in a Python process of its own.

This file runs as a script in a fresh interpreter (see
:mod:`gopskit.arena.sandbox`), with its working directory set to a private
temporary folder holding only the student's file. It imports nothing from
gopskit, so a broken entry cannot break the kit, and it speaks a tiny protocol
on two private pipes:

* the parent sends ``marshal`` messages, each prefixed by its 4-byte length:
  first the configuration, then ``{"op": "play", "items": [...]}`` batches
  (one item per game waiting for this entry's move: ``[key, seed, obs]``;
  an observation with ``history_from`` carries only the turns from that
  index on, the worker keeping the earlier ones of that game),
  ``{"op": "reset"}`` (forget every game) or ``{"op": "quit"}``;
* the worker answers in lines: a JSON ``{"ready": ...}`` once, then one line
  per item, in the order asked: the move as a number (``7``), ``s`` and a
  JSON string for a move that is text, or ``e`` and a JSON ``[kind,
  detail]`` for a forfeit; a batch closes with ``d`` and a JSON
  ``{"done": n, "out": printed text, "cut": characters dropped}``.

Replies are plain text and JSON, never pickle: the parent must not trust them.

Guards, each a rule of the tournament (docs/tournaments.md):

* a per-move time limit (``SIGALRM`` raises inside the student's code; the
  parent also kills a worker that stops answering);
* a memory limit (``RLIMIT_AS``) and a file-size limit;
* ``print`` output is captured into a capped buffer, never the protocol pipe;
* an audit hook (PEP 578) refuses to open, list or change files outside the
  entry's own folder (the Python library excepted, read-only), to start
  processes, to use sockets and to call C functions through ``ctypes``,
  with a ``PermissionError`` a student can read.

None of these is a boundary: they run inside the student's own process, and
a determined strategy can switch them off. The boundary is outside: under
bubblewrap this process has its own namespaces, a read-only system, a
seccomp filter, limits set here before the student's file is loaded (hard
limits: they cannot be raised again), and the parent keeps the clock and
kills the whole sandbox (see :mod:`gopskit.arena.sandbox`).
"""

import importlib.util
import inspect
import json
import marshal
import operator
import os
import random
import signal
import struct
import sys
import time
import traceback

_MAX_INT = 2**31
_TIMEOUT = 'e["timeout"'


class MoveTimeout(BaseException):
    """Raised inside the student's code when the move's time is up."""


class Observation:
    """What your seat may see now, read with dots: ``observation.prize``.

    Lists arrive as tuples; past turns in ``observation.history`` are
    observations too (``turn.prize``, ``turn.bids``, ``turn.winner``).
    ``observation["prize"]`` works as well; ``dir(observation)`` lists the fields.
    """

    __slots__ = ("_data", "_cache")

    def __init__(self, data):
        object.__setattr__(self, "_data", data)
        object.__setattr__(self, "_cache", {})

    def __getattr__(self, name):
        cache = self._cache
        if name in cache:
            return cache[name]
        if name not in self._data:
            fields = ", ".join(sorted(self._data))
            raise AttributeError(f"the observation has no field {name!r}; its fields are: {fields}")
        value = cache[name] = _freeze(self._data[name])
        return value

    def __getitem__(self, name):
        try:
            return self.__getattr__(name)
        except AttributeError as exc:
            raise KeyError(str(exc)) from None

    def __setattr__(self, name, value):
        raise AttributeError("the observation is read-only; keep your own notes in variables")

    def __dir__(self):
        return sorted(self._data)

    def keys(self):
        return list(self._data)

    def to_dict(self):
        """A plain copy of the data (lists and dicts)."""
        return json.loads(json.dumps(self._data))

    def __repr__(self):
        shown = ", ".join(f"{k}={_freeze(v)!r}" for k, v in self._data.items() if k != "history")
        return f"Observation({shown}, history=<{len(self._data.get('history') or ())} turns>)"


def _freeze(value):
    if type(value) is list:
        return tuple(_freeze(v) for v in value)
    if type(value) is dict:
        return Observation(value)
    return value


class CappedText:
    """A stand-in for ``sys.stdout``: keeps the first ``limit`` characters."""

    def __init__(self, limit):
        self.limit, self.parts, self.size, self.cut = limit, [], 0, 0

    def write(self, text):
        text = str(text)
        room = self.limit - self.size
        if room > 0:
            self.parts.append(text[:room])
            self.size += min(room, len(text))
        self.cut += max(0, len(text) - max(room, 0))
        return len(text)

    def flush(self):
        pass

    def isatty(self):
        return False

    def take(self):
        text, cut = "".join(self.parts), self.cut
        self.parts, self.size, self.cut = [], 0, 0
        return text, cut


# ---------------------------------------------------- loading the entry ---
class LoadError(Exception):
    """The student's file cannot be used; the message is for a beginner."""


def load_strategy(filename):
    """Import ``filename`` and return ``(kind, player)``: a function or a class."""
    path = os.path.abspath(filename)
    spec = importlib.util.spec_from_file_location("student_strategy", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["student_strategy"] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        code = (exc.text or "").strip()
        raise LoadError(f"Python cannot read line {exc.lineno}: {exc.msg}" + (f" (`{code}`)" if code else "")) from None
    except MoveTimeout:
        raise LoadError("importing the file took too long (does it run a loop outside the function?)") from None
    except BaseException as exc:  # noqa: BLE001 - anything the file does must be reported, not raised
        raise LoadError(f"importing the file failed: {describe_exception(exc, path)}") from None
    return pick_strategy(module, os.path.basename(path))


def pick_strategy(module, name):
    """Find ``class Strategy`` or ``def strategy(observation)`` in ``module``."""
    found = getattr(module, "Strategy", None) or getattr(module, "strategy", None)
    if isinstance(found, type):
        method = next((getattr(found, m) for m in ("strategy", "act", "play") if callable(getattr(found, m, None))), None)
        if method is None:
            raise LoadError(f"class {found.__name__} needs a method `def strategy(self, observation):`")
        check_signature(method, f"{found.__name__}.{method.__name__}", ("self", "observation"))
        check_signature(found, f"{found.__name__}()", ())
        return "class", found
    if callable(found):
        check_signature(found, "strategy", ("observation",))
        return "function", found
    functions = [n for n, v in vars(module).items() if inspect.isfunction(v) and not n.startswith("_")]
    hint = f" It defines {', '.join(functions)}: rename the one that bids to `strategy`." if functions else ""
    raise LoadError("there is no function called `strategy`. Write `def strategy(observation):` "
                    f"that returns the card to bid.{hint}")


def check_signature(func, label, wanted):
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return
    try:
        signature.bind(*range(len(wanted)))
    except TypeError:
        line = getattr(getattr(func, "__code__", None), "co_firstlineno", None)
        where = f" (line {line})" if line else ""
        if label.endswith("()"):
            raise LoadError(f"{label}{where} must work without arguments: `def __init__(self):`") from None
        raise LoadError(
            f"`{label}{signature}`{where} must take exactly one input, the observation: "
            f"`def {label.split('.')[-1]}({', '.join(wanted)}):`"
        ) from None


def describe_exception(exc, path):
    """``'ZeroDivisionError: division by zero (line 4: `return 1 / 0`)'``.

    Never raises: an exception whose traceback or name cannot be read (a
    hostile property) is named as well as it can be.
    """
    try:
        return _describe(exc, path)
    except BaseException:  # noqa: BLE001 - the student's exception object may do anything
        return f"{_type_name(exc)} (its message could not be read)"


def _describe(exc, path):
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename == path]
    where = ""
    if frames:
        frame = frames[-1]
        where = f" (line {frame.lineno}" + (f": `{frame.line.strip()}`" if frame.line else "") + ")"
    text = _safe_str(exc)
    return f"{type(exc).__name__}{': ' + text if text else ''}{where}"


def _safe_str(exc):
    try:
        return str(exc)[:300]
    except BaseException:  # noqa: BLE001 - a hostile __str__
        return ""


# ------------------------------------------------------------- playing ---
class Worker:
    """Plays the entry's side of many games; keeps one strategy object per game."""

    def __init__(self, config, kind, player, output):
        self.limit = float(config["time_limit"])
        self.path = os.path.abspath(config["file"])
        self.kind, self.player, self.output = kind, player, output
        self.games = {}
        self.armed = False

    def on_alarm(self, signum, frame):
        if self.armed:
            raise MoveTimeout()

    def play(self, items, timeouts_left, send):
        for key, seed, data in items:
            if timeouts_left <= 0:
                send(error_line("withdrawn", "too many timeouts"))
                continue
            line = self.move(key, seed, data)
            timeouts_left -= line.startswith(_TIMEOUT)
            send(line)

    def move(self, key, seed, data):
        """Play one move; return its reply line (see the module docstring)."""
        game = self.games.get(key)
        if game is None:
            game = self.games[key] = {"seed": int(seed or 0), "moves": 0, "object": None, "history": []}
        if "history_from" in data:  # only the turns not sent before: keep the whole history here
            history = game["history"]
            del history[data.pop("history_from"):]
            history.extend(data["history"])
            data["history"] = list(history)
        move_seed = game["seed"] * 1_000_003 + game["moves"]
        game["moves"] += 1
        start = time.perf_counter()
        try:
            move = self.call(game, Observation(data), move_seed)
        except MoveTimeout:
            return error_line("timeout", f"took longer than {self.limit:g} s (the time limit per move)")
        except MemoryError:
            return error_line("memory", "ran out of memory (MemoryError)")
        except BaseException as exc:  # noqa: BLE001 - the student's error is a forfeit, not ours
            return error_line("exception", describe_exception(exc, self.path))
        if time.perf_counter() - start > self.limit:
            return error_line("timeout", f"took longer than {self.limit:g} s (the time limit per move)")
        return move_line(move)

    def call(self, game, observation, move_seed):
        """The student's move, under the alarm; the generators are seeded first, under it too
        (the student may have replaced ``random.seed`` or ``sys.modules["numpy.random"]``)."""
        self.armed = True
        signal.setitimer(signal.ITIMER_REAL, self.limit)
        try:
            random.seed(move_seed)
            numpy_random = sys.modules.get("numpy.random")
            if numpy_random is not None:  # only when the student imported numpy
                numpy_random.seed(move_seed % 2**32)
            if self.kind == "function":
                return self.player(observation)
            if game["object"] is None:
                game["object"] = self.player()
                if callable(getattr(game["object"], "reset", None)):
                    game["object"].reset()
            obj = game["object"]
            method = next(getattr(obj, m) for m in ("strategy", "act", "play") if callable(getattr(obj, m, None)))
            return method(observation)
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            self.armed = False


def move_line(move):
    """The reply line for the student's answer: the move, or why it is not one."""
    if type(move) is int and -_MAX_INT < move < _MAX_INT:
        return f"{move}\n"
    if type(move) is str:
        return "s" + json.dumps(move[:40]) + "\n"
    if isinstance(move, bool) or move is None or type(move) is float:
        why = {None: "returned None: did your function forget `return`?"}.get(move, f"returned {move!r}")
        hint = "; a card is a whole number such as 5" if move is not None else ""
        return error_line("malformed", why + hint)
    try:
        number = operator.index(move)
    except BaseException:  # noqa: BLE001 - any object may come back
        return error_line("malformed", f"returned a {_type_name(move)}; a card is a whole number such as 5")
    if not -_MAX_INT < number < _MAX_INT:
        return error_line("malformed", "returned a number far larger than any card")
    return f"{int(number)}\n"


def error_line(kind, detail):
    return "e" + json.dumps([kind, detail]) + "\n"


def _type_name(value):
    try:
        return str(type(value).__name__)[:40]
    except BaseException:  # noqa: BLE001
        return "strange object"


# ------------------------------------------------------------ protocol ---
class Channel:
    """Length-prefixed marshal in, reply lines out, on two private file descriptors."""

    def __init__(self, fd_in, fd_out):
        self.fd_in, self.fd_out = fd_in, fd_out
        self.pending, self.last_flush = [], time.monotonic()

    def receive(self):
        size = struct.unpack(">I", self._read(4))[0]
        return marshal.loads(self._read(size))

    def _read(self, size):
        chunks = []
        while size:
            chunk = os.read(self.fd_in, min(size, 1 << 20))
            if not chunk:
                raise EOFError
            chunks.append(chunk)
            size -= len(chunk)
        return b"".join(chunks)

    def send(self, line, flush=False):
        self.pending.append(line)
        if flush or time.monotonic() - self.last_flush > 0.02:
            self.flush()

    def flush(self):
        data = "".join(self.pending).encode("utf-8")
        self.pending = []
        while data:
            data = data[os.write(self.fd_out, data):]
        self.last_flush = time.monotonic()


def _load_fence():
    """Load ``_fence.py`` from beside this file (not through gopskit, which this process never imports)."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_fence.py")
    spec = importlib.util.spec_from_file_location("gopskit_sandbox_fence", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _private_pipes():
    """Keep stdin/stdout for the protocol; give the student /dev/null and a capped buffer."""
    fd_in, fd_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    sys.stdin = open(os.devnull, encoding="utf-8")
    return Channel(fd_in, fd_out)


def main():
    sys.dont_write_bytecode = True
    channel = _private_pipes()
    config = channel.receive()
    output = CappedText(int(config.get("output_limit", 4000)))
    sys.stdout = sys.stderr = output
    fence = _load_fence()
    fence.apply_limits(config.get("memory_limit"), config.get("max_processes"), config.get("max_open_files"),
                       config.get("file_bytes", 16 * 2**20))
    worker = Worker(config, None, None, output)
    signal.signal(signal.SIGALRM, worker.on_alarm)
    sys.addaudithook(fence.Fence(os.getcwd(), config.get("read_dirs", ())))
    try:
        worker.armed = True
        signal.setitimer(signal.ITIMER_REAL, float(config.get("load_time_limit", 10)))
        worker.kind, worker.player = load_strategy(config["file"])
    except LoadError as exc:
        channel.send(json.dumps({"ready": False, "error": str(exc)}) + "\n", flush=True)
        return
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        worker.armed = False
    channel.send(json.dumps({"ready": True, "kind": worker.kind}) + "\n", flush=True)
    serve(channel, worker, output)


def serve(channel, worker, output):
    while True:
        try:
            message = channel.receive()
        except EOFError:
            return
        op = message.get("op")
        if op == "quit":
            return
        if op == "reset":
            worker.games.clear()
        elif op == "play":
            worker.play(message["items"], message.get("timeouts_left", 1 << 30), channel.send)
        text, cut = output.take()
        channel.send("d" + json.dumps({"done": len(message.get("items", ())), "out": text, "cut": cut}) + "\n",
                     flush=True)


if __name__ == "__main__":
    main()
