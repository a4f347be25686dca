"""From a source's ModuleSpec to checked Python text: schema walk, render, format, gate (pipeline drives them)."""
