"""The generated modules alive in this process, by the file name their code
carries: how a traceback through generated code is read back to the rules
(failures.py, explain.py). compiler/codegen.py registers each module it builds.
"""
from __future__ import annotations

import weakref

BUILT: "weakref.WeakValueDictionary[str, object]" = weakref.WeakValueDictionary()  # file name -> codegen.Module
