"""Hindi: Django's formats with the amounts' digits grouped in lakhs and crores (1,00,000.00)
and times as in Django's Hindi locale. See ``rummy_site/formats/en``."""

from django.conf.locale.hi.formats import *  # noqa: F403

DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = (3, 2, 0)
