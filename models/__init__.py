"""The shipped ONNX dice-face classifier, its model card, and its training code."""
