"""Package data only: real tile faces and table tops for rendered scenes (see README.md here)."""
