"""Frames in, readings out: cameras, dice localisation, face classification, settling."""
