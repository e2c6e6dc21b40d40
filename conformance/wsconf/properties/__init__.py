"""Property tests (hypothesis) that drive any implementation through the adapter interface.

Run with `wsconf properties --adapter X [--profile thorough] [--compare Y]`, or
`pytest --pyargs wsconf.properties --wsconf-adapter X`.
"""
