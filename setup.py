"""Bundle the suite's data into the wheel: the spec (with its docs), the fixtures cases use, the
expectations, the upstream bridge's sources with their lockfile, and the example ports
(wsconf/spec/resources.py reads them back)."""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
BUNDLE = {
    "spec": ROOT / "spec",
    "fixtures/repo": ROOT / "fixtures" / "repo",
    "expectations": ROOT / "conformance" / "expectations",
    "mastra-bridge": ROOT / "tools" / "mastra-bridge",
    "examples": ROOT / "examples",  # the worked ports, `wsconf init --example NAME` copies one
}
SKIP = shutil.ignore_patterns("node_modules", "vendor", "__pycache__", "*.pyc", "results")  # vendor: fetched by npm pack, never shipped


class BuildWithBundle(build_py):
    def run(self):
        super().run()
        if getattr(self, "editable_mode", False):
            return  # an editable install reads the checkout's own folders
        target = Path(self.build_lib) / "wsconf" / "_bundled"
        for name, source in BUNDLE.items():
            if not source.is_dir():
                raise SystemExit(f"setup.py: {source} is missing; build from a full checkout or sdist")
            dest = target / name
            if dest.exists():
                shutil.rmtree(dest)
            shutil.copytree(source, dest, ignore=SKIP, symlinks=False)


setup(cmdclass={"build_py": BuildWithBundle})
