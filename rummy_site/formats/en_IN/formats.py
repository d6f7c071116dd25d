"""English for India (en_IN): the amounts' digits grouped in lakhs and crores (1,00,000.00).
Only amounts are grouped (``ledger.currencies.format_amount`` forces it); other numbers are
not, since ``USE_THOUSAND_SEPARATOR`` stays off (ids and versions in URLs and attributes)."""

from django.conf.locale.en.formats import *  # noqa: F403

DECIMAL_SEPARATOR = "."
THOUSAND_SEPARATOR = ","
NUMBER_GROUPING = (3, 2, 0)
