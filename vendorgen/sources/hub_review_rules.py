"""What the static review of Hub code flags (hub_review.py): categories of modules and names, and `category`."""

from __future__ import annotations

import fnmatch
import functools

# Modules with no harmless use for a tool: every name of them (private ones included) falls in the
# category, and so does importing them. A module covers its submodules.
MODULES: dict[str, tuple[str, ...]] = {
    "process": (
        "subprocess", "_posixsubprocess", "_subprocess", "pty", "posix", "nt", "_winapi", "msvcrt",
        "multiprocessing", "_multiprocessing", "concurrent.futures.process", "signal", "pydoc", "webbrowser",
        "pexpect", "sh", "plumbum", "sarge", "docker",
    ),
    "network": (
        "socket", "_socket", "ssl", "_ssl", "select", "selectors", "http", "urllib", "xmlrpc", "socketserver",
        "ftplib", "smtplib", "poplib", "imaplib", "nntplib", "telnetlib", "wsgiref",
        "requests", "httpx", "httpx2", "urllib3", "aiohttp", "websockets", "websocket", "pycurl", "httplib2",
        "paramiko", "fabric", "grpc", "gradio_client", "huggingface_hub", "boto3", "botocore", "tornado",
        "twisted", "selenium", "playwright",
    ),
    "file write": ("tempfile", "fileinput", "mmap", "_io", "dbm", "sqlite3", "_sqlite3"),
    "environment": ("dotenv", "getpass", "pwd", "grp", "_posixshmem"),
    "deserialization": (
        "pickle", "_pickle", "cPickle", "pickletools", "copyreg", "marshal", "shelve", "dill", "cloudpickle",
        "joblib", "jsonpickle",
    ),
    "dynamic code": (
        "importlib", "imp", "zipimport", "pkgutil", "modulefinder", "runpy", "code", "codeop", "timeit", "pdb",
        "bdb", "profile", "cProfile", "trace", "doctest", "compileall", "py_compile", "site", "ctypes", "_ctypes",
        "cffi",
    ),
    "dynamic access": ("__main__", "inspect", "gc"),
}  # fmt: skip

# Names that fall in a category whatever their module's entry says (`*` is a glob).
NAMES: dict[str, tuple[str, ...]] = {
    "process": (
        "os.system", "os.popen", "os.exec*", "os.spawn*", "os.posix_spawn*", "os.fork*", "os.kill*", "os.startfile",
        "asyncio.create_subprocess_*", "asyncio.subprocess", "concurrent.futures.ProcessPoolExecutor",
        "builtins.help",  # pydoc's pager: $PAGER, run by the shell
    ),
    "network": (
        "asyncio.open_*connection", "asyncio.start_*server", "logging.handlers.*Socket*", "logging.handlers.HTTP*",
        "logging.handlers.SMTP*", "logging.handlers.SysLog*", "logging.handlers.Datagram*",
    ),
    "file write": (
        "os.remove", "os.unlink", "os.rmdir", "os.removedirs", "os.rename", "os.renames", "os.replace",
        "os.truncate", "os.open", "os.mkdir", "os.makedirs", "os.chmod", "os.chown", "os.lchown", "os.link",
        "os.symlink", "os.mkfifo", "os.mknod", "os.write", "os.utime", "shutil.*", "logging.FileHandler",
        "logging.handlers.*FileHandler",
        "pathlib.*.write_*", "pathlib.*.touch", "pathlib.*.mkdir", "pathlib.*.unlink", "pathlib.*.rmdir",
        "pathlib.*.rename", "pathlib.*.replace", "pathlib.*.symlink_to", "pathlib.*.hardlink_to",
        "pathlib.*.link_to", "pathlib.*.chmod", "pathlib.*.lchmod",
    ),
    "file read": ("os.path.expanduser", "pathlib.*.home", "pathlib.*.expanduser"),
    "environment": (
        "os.environ", "os.environb", "os.getenv", "os.getenvb", "os.putenv", "os.unsetenv", "os.path.expandvars",
        "posix.environ", "nt.environ", "os.getlogin",
    ),
    "deserialization": (
        "torch.load", "numpy.load", "yaml.load", "yaml.unsafe_load*", "yaml.full_load*", "yaml.*Loader",
        "pandas.read_pickle",
    ),
    "dynamic code": (
        "builtins.eval", "builtins.exec", "builtins.compile", "builtins.__import__", "builtins.breakpoint",
        "types.FunctionType", "types.CodeType", "types.LambdaType", "pydoc.locate", "pydoc.importfile",
        "sys.meta_path", "sys.path_hooks", "sys.path", "sys.settrace", "sys.setprofile", "sys.addaudithook",
        "logging.config",  # fileConfig and listen() evaluate configuration as code
    ),
    "dynamic access": (
        "builtins.getattr", "builtins.setattr", "builtins.delattr", "builtins.vars", "builtins.globals",
        "builtins.locals", "builtins.__builtins__", "sys.modules", "sys._getframe", "operator.attrgetter",
        "operator.methodcaller",
    ),
}  # fmt: skip

# Names of the modules above (and of os, sys, io) that are harmless: never flagged.
HARMLESS = (
    "os.path", "os.path.*", "os.sep", "os.altsep", "os.extsep", "os.pathsep", "os.linesep", "os.defpath",
    "os.curdir", "os.pardir", "os.devnull", "os.name", "os.fspath", "os.fsencode", "os.fsdecode", "os.PathLike",
    "os.getcwd", "os.getcwdb", "os.cpu_count", "os.getpid", "os.listdir", "os.scandir", "os.walk", "os.stat",
    "os.lstat", "os.strerror", "os.urandom", "os.get_terminal_size", "os.SEEK_*", "os.O_*", "os.error",
    "sys.argv", "sys.exit", "sys.version", "sys.version_info", "sys.platform", "sys.maxsize", "sys.stdin",
    "sys.stdout", "sys.stderr", "sys.byteorder", "sys.getsizeof", "sys.float_info", "sys.hexversion",
    "sys.implementation", "sys.getrecursionlimit", "sys.getdefaultencoding", "sys.stdlib_module_names",
    "io.StringIO", "io.BytesIO", "io.TextIOWrapper", "io.Buffered*", "io.*IOBase", "io.SEEK_*",
    "io.DEFAULT_BUFFER_SIZE", "io.UnsupportedOperation",
    "urllib.parse", "urllib.parse.*", "http.HTTPStatus", "http.HTTPMethod", "shutil.which",
    "shutil.get_terminal_size", "shutil.disk_usage", "tempfile.gettempdir", "tempfile.gettempprefix",
)  # fmt: skip
# Modules other modules import and so carry as attributes (`platform.os`, `torch.multiprocessing`): reached
# through another module, they are judged as themselves.
_REEXPORTED = frozenset({"os", "sys", "subprocess", "builtins", "posix", "nt", "socket", "pickle", "marshal",
                         "importlib", "ctypes", "shutil", "multiprocessing", "pty"})  # fmt: skip
# Modules most tools import for harmless things: importing them is not flagged, using one of their names
# is flagged by NAMES or, when HARMLESS does not list it, as this category (None: not flagged). Passing
# one around as a value is dynamic access. `builtins.x` is also how the bare builtin `x` is named here.
COMMON: dict[str, str | None] = {
    "os": "process", "sys": "dynamic access", "io": "file write", "shutil": "file write", "pathlib": None,
    "asyncio": None, "types": None, "operator": None, "builtins": None,
}  # fmt: skip

# Special attributes that only say what an object is or run a protocol; every other `__x__` reaches
# namespaces, frames, code or the class graph (`().__class__.__base__.__subclasses__()`).
_PLAIN_DUNDERS = frozenset(
    {"__init__", "__new__", "__post_init__", "__name__", "__qualname__", "__doc__", "__module__", "__version__",
     "__class__", "__annotations__", "__file__", "__enter__", "__exit__", "__aenter__", "__aexit__", "__str__",
     "__repr__", "__len__", "__iter__", "__next__", "__eq__", "__hash__", "__call__", "__future__"}
)  # fmt: skip
# Attributes of frames, generators and tracebacks that lead to a frame's globals and builtins.
_FRAME_ATTRIBUTES = frozenset({"f_globals", "f_locals", "f_builtins", "f_back", "f_code", "gi_frame", "cr_frame",
                               "ag_frame", "tb_frame", "tb_next", "gi_code", "co_code"})  # fmt: skip


@functools.cache
def category(qualified: str) -> str | None:
    """The category `qualified` (a name after imports are resolved, builtins as `builtins.x`) falls in."""
    parts = qualified.split(".")
    named, harmless = _closest_rule(qualified)
    if named is not None:
        return named
    if any(hidden_attribute(part) for part in parts[1:]):
        return "dynamic access"
    for index, part in enumerate(parts[1:], 1):
        if part.lstrip("_") in _REEXPORTED:  # `platform.os.system`, `tempfile._os.environ`
            return category(".".join([part.lstrip("_"), *parts[index + 1 :]])) or "dynamic access"
    if harmless:
        return None
    for name, modules in MODULES.items():
        if any(_covers(module, qualified) for module in modules):
            return name
    if parts[0] in COMMON and len(parts) > 1:
        return COMMON[parts[0]]
    if parts[0] != "builtins" and any(_private(part) for part in parts):
        return "internals"  # `uuid._get_command_stdout`: what it does is no module's documented behaviour
    return None


def module_category(module: str) -> str | None:
    """The category of importing `module` itself: the common modules are imported by every tool."""
    return None if module in COMMON else category(module)


def _closest_rule(qualified: str) -> tuple[str | None, bool]:
    """The NAMES category or HARMLESS entry closest to `qualified` (`os.path.expandvars` over `os.path.*`):
    (category, False), (None, True) for harmless, (None, False) when neither lists it."""
    rules: list[tuple[str, str | None]] = [(pattern, name) for name, patterns in NAMES.items() for pattern in patterns]
    rules += [(pattern, None) for pattern in HARMLESS]
    matching = [(len(pattern.replace("*", "")), name) for pattern, name in rules if _covers(pattern, qualified)]
    if not matching:
        return None, False
    name = max(matching, key=lambda match: match[0])[1]
    return name, name is None


def _covers(pattern: str, qualified: str) -> bool:
    """`pattern` names `qualified` or an object it is an attribute of (`sys.path` covers `sys.path.insert`)."""
    return fnmatch.fnmatchcase(qualified, pattern) or qualified.startswith(pattern + ".")


def _private(part: str) -> bool:
    return part.startswith("_") and not (part.startswith("__") and part.endswith("__"))


def hidden_attribute(name: str) -> bool:
    """An attribute that leads to namespaces, frames or code the reader cannot follow."""
    dunder = len(name) > 4 and name.startswith("__") and name.endswith("__")
    return (dunder and name not in _PLAIN_DUNDERS) or name in _FRAME_ATTRIBUTES
