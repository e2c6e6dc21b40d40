"""Starts a daemon before it answers hello: detached (setsid and a double fork) so that, but for the
harness being a subreaper already, it would belong to init and outlive the run. Its command line
carries $WSCONF_FAKE_MARK, so the test can look for it."""
import os
import subprocess

from protocol_fake import serve, sleeper_argv


def daemon():
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            subprocess.Popen(sleeper_argv(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        os._exit(0)
    os.wait()


serve(before_hello=daemon)
