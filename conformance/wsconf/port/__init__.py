"""Starting a port: the files `wsconf init` writes and the `wsconf smoke` check of a new adapter.

May import: everything below the command line.
"""
