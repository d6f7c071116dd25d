"""Database backends of the site: Django's own, subclassed where the site needs more."""
