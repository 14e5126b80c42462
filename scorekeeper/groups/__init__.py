"""The group that plays every week: its pages (routes.py), forms and exports."""
