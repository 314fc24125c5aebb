"""opgrad: eager automatic differentiation with operators generated from a YAML spec."""
