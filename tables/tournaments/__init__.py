"""Tournaments (rule book section 10): scheduled multi-table knockouts and sit & go, from
registration to prizes. The pure decisions live in ``tables.rules.tournament``; this package
holds the models, the services (``tournament_<action>``), the director that runs a tournament
step by step, the selectors, the admin, the tasks and the pages.
"""
