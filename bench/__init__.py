"""On-demand benchmark of Scorekeeper under gunicorn as production runs it (`make bench`)."""
