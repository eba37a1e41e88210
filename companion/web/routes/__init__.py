"""The app's routes, one module a part of the pages: each module lists its ``ROUTES``."""
