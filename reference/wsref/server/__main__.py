"""`python -m wsref.server`: serve spec/protocol.md on stdin/stdout."""
from .serve import serve

serve()
