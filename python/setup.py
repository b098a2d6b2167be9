"""The build step pyproject.toml cannot say: where libgisa.so comes from.

The package is pure Python over libgisa.so, which goes into the package
next to the modules (gisa/libgisa.so, the first place the loader looks
after $GISA_LIBRARY). It comes from:
  - $GISA_LIBRARY, a libgisa.so already built (nothing is compiled), or
  - the source tree one level up (../CMakeLists.txt): the shared library
    alone (target gisa_shared) is configured and built with CMake in the
    build directory's temp folder (python/build/, ignored by git).
The package's version is the library's (gisa_version(), CMake's project
VERSION), and the wheel is platform-specific (py3-none-<platform>)."""

import ctypes
import os
import re
import shutil
import subprocess

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # no wheel package: pip install still works, pip wheel does not
    bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def library_version(path):
    """gisa_version() of the library at path."""
    lib = ctypes.CDLL(os.path.abspath(path))
    lib.gisa_version.restype = ctypes.c_char_p
    return lib.gisa_version().decode()


def source_version():
    """CMake's project VERSION of the source tree one level up, or None."""
    try:
        with open(os.path.join(ROOT, "CMakeLists.txt")) as f:
            m = re.search(r"project\(\s*gisa\s+VERSION\s+([0-9.]+)", f.read())
    except OSError:
        return None
    return m.group(1) if m else None


def package_version():
    lib = os.environ.get("GISA_LIBRARY")
    if lib:
        if not os.path.isfile(lib):
            raise SystemExit("gisa: GISA_LIBRARY=%s is not a file" % lib)
        return library_version(lib)
    v = source_version()
    if v is None:
        raise SystemExit("gisa: no libgisa.so to put in the package: set GISA_LIBRARY to a built libgisa.so, "
                         "or build from the gisa source tree (python/ of a checkout, ../CMakeLists.txt)")
    return v


class build_py_with_library(build_py):
    """build_py, then libgisa.so copied into the built package."""

    def run(self):
        super().run()
        lib = os.environ.get("GISA_LIBRARY") or self.cmake_build()
        got, want = library_version(lib), self.distribution.get_version()
        if got != want:
            raise SystemExit("gisa: %s is version %s, the package's is %s" % (lib, got, want))
        dest = os.path.join(self.build_lib, "gisa", "libgisa.so")
        self.mkpath(os.path.dirname(dest))
        shutil.copyfile(os.path.realpath(lib), dest)  # the file, not a symlink to it
        os.chmod(dest, 0o755)

    def cmake_build(self):
        build_dir = os.path.join(os.path.abspath(self.get_finalized_command("build").build_temp), "cmake")
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        cmake = os.environ.get("CMAKE", "cmake")
        self.announce("gisa: building libgisa.so with CMake in %s" % build_dir, level=2)
        subprocess.check_call([cmake, "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                               "-DBUILD_TESTING=OFF", "-DGISA_BUILD_BENCH=OFF", "-DGISA_BUILD_SHARED=ON"])
        subprocess.check_call([cmake, "--build", build_dir, "--target", "gisa_shared", "--parallel", jobs])
        return os.path.join(build_dir, "libgisa.so")


class BinaryDistribution(Distribution):
    """The package carries a compiled library: it installs into platlib and
    its wheel is not pure."""

    def has_ext_modules(self):
        return True


cmdclass = {"build_py": build_py_with_library}

if bdist_wheel is not None:
    class bdist_wheel_platform(bdist_wheel):
        """A wheel for this platform (it carries libgisa.so), for any
        Python 3 (the package itself is pure Python: ctypes)."""

        def get_tag(self):
            return ("py3", "none", super().get_tag()[2])

    cmdclass["bdist_wheel"] = bdist_wheel_platform

setup(version=package_version(), cmdclass=cmdclass, distclass=BinaryDistribution)
