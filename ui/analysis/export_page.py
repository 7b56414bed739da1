"""The Export page's one door into ``ui.analysis``: everything ``pages/export.py`` uses from this
room, re-exported from the modules that define it (a page imports one module of its room).
"""

from ui.analysis.export_zip import export_contents

__all__ = ["export_contents"]
