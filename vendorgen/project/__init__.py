"""The user's project: its files and lock (workspace, paths), settings (config), interpreter and requirements."""
