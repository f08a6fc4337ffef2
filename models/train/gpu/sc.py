"""models/train/synth_cells.py with its font folder taken from $FONTS (only the bundle's fonts)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import synth_cells  # noqa: E402

synth_cells.FONT_DIRS = [os.environ["FONTS"]]
sys.argv[0] = "synth_cells.py"
synth_cells.main()
