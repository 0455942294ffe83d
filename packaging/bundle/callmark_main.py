"""The bundle's entry point: the `callmark` command, frozen.

freeze_support() first: the transcription child is started with multiprocessing's
"spawn", which in a frozen app runs this same executable again, told so by its
arguments; it must become the child before anything else starts.
"""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from desktop.cli import main

    sys.exit(main())
