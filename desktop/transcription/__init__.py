"""Transcripts, Qt-free: local Whisper in a spawned child, model resolution,
VTT/SRT import and export, and speakers from stereo channels.

Import from the modules: segments, subtitles, models, runner (+ worker),
channels, progress. Nothing here imports faster-whisper in the parent process.
"""
