"""Travel values: how one trip's values are drawn."""

from __future__ import annotations

import datetime as dt

from polar_inspect.generate.domains import schema
from polar_inspect.generate.values import REFERENCE_YEAR, ValueGen


class Destination(schema.Knowledge):
    """A destination with what its booking details are drawn from."""

    destination: str
    #: Faker locale for the hotel's street name.
    faker_locale: str
    #: IATA code of the airport flown to from Zurich.
    airport: str
    #: IATA code of the carrier flying there besides Swiss (LX).
    local_carrier: str
    #: `ValueGen.code` pattern of a local postcode.
    postcode_pattern: str
    #: The city's name as locals write it in an address.
    local_city: str


class Vocabulary(schema.Vocabulary):
    """The lists a trip's values are drawn from."""

    destinations: tuple[Destination, ...]
    travel_purposes: tuple[str, ...]
    #: Budget bands in CHF, (low, high).
    budget_bands: tuple[tuple[int, int], ...]
    mobility_needs: tuple[str, ...]


def make_values(g: ValueGen, words: Vocabulary) -> dict[str, schema.Value]:
    """One trip's values."""
    place = g.pick(words.destinations)
    traveller, companion = g.person(), g.person()
    start = dt.date(REFERENCE_YEAR + 1, 1, 1) + dt.timedelta(days=g.between(20, 300))
    end = start + dt.timedelta(days=g.between(8, 21))
    out = start + dt.timedelta(days=g.between(1, 3))
    back = end - dt.timedelta(days=g.between(1, 3))
    airline = g.pick(("LX", place.local_carrier))
    itinerary = (
        f"{airline} {g.between(100, 2999)} ZRH-{place.airport} on {out.isoformat()}, return "
        f"{airline} {g.between(100, 2999)} on {back.isoformat()}"
    )
    return {
        "travel_purpose": g.pick(words.travel_purposes),
        "destination": place.destination,
        "travel_date_window": f"{start.isoformat()} to {end.isoformat()}",
        "budget_band": g.band(words.budget_bands)[2],
        "mobility_needs": g.pick(words.mobility_needs),
        "traveler_name": traveller.full,
        "email": g.email(traveller),
        "phone": g.phone(),
        "exact_dob": g.date_of_birth(19, 82),
        "passport_number": g.code("?#######"),
        "exact_itinerary": itinerary,
        "hotel_address": g.foreign_address(
            place.faker_locale, g.code(place.postcode_pattern), place.local_city
        ),
        "companion_name": companion.full,
        "loyalty_number": g.code("FF-########"),
    }
