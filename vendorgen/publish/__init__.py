"""Publishing a vendored module: `vendorgen push` writes it as a Hub tool Space (push, portable)."""
