"""`cardtable serve`'s web side: who is let in (``gate``), the server (``server``, which needs
the serve extra), and the page with its fonts (``templates/``, ``static/``)."""
