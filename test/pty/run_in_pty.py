#!/usr/bin/env python3
"""
Runs a command inside a pseudo-terminal and relays bytes: our stdin -> the terminal (keystrokes),
the terminal -> our stdout (the screen). Tests drive interactive prompts through it; it needs only
python3, not a native node module. Exits with the command's exit code.

usage: run_in_pty.py [--size COLSxROWS] -- command [args...]
"""
import fcntl
import os
import pty
import select
import struct
import sys
import termios


def main() -> int:
    args = sys.argv[1:]
    cols, rows = 100, 30
    if args[:1] == ["--size"]:
        cols, rows = (int(n) for n in args[1].split("x"))
        args = args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    pid, fd = pty.fork()
    if pid == 0:
        # In the child, fd 0 is the terminal's slave side: give it a size before the program starts.
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        os.execvp(args[0], args)
    stdin_open = True
    out = sys.stdout.buffer
    while True:
        watched = [fd] + ([0] if stdin_open else [])
        ready, _, _ = select.select(watched, [], [])
        if fd in ready:
            try:
                data = os.read(fd, 65536)
            except OSError:  # EIO: the program exited and the slave side closed
                data = b""
            if not data:
                break
            out.write(data)
            out.flush()
        if 0 in ready:
            data = os.read(0, 65536)
            if data:
                os.write(fd, data)
            else:
                stdin_open = False
    _, status = os.waitpid(pid, 0)
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


if __name__ == "__main__":
    sys.exit(main())
