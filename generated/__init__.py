# @generated __init__ from ops.yaml and backward.yaml by `python -m opgrad.codegen`. Do not edit.
"""Generated code, never edited by hand. Ops are re-exported by `opgrad`."""
