"""What every stage shares about text and code, below them all: escaped literals (`literals`), size
limits (`limits`), JSON Schema to smolagents types (`schema`), reading Python source as written
(`pysource`) and black (`formatter`). Imports only the model, naming and errors."""
