"""How each domain's values are drawn: per domain, the pydantic model of its JSON file's
`vocabulary` section and `make_values`, its value recipe (docs/generator.md, "Domains are data")."""

from __future__ import annotations

import datetime as dt
from typing import Literal

from pydantic import Field

from polar_inspect.generate.domains.schema import Knowledge, Value, Vocabulary
from polar_inspect.generate.values import REFERENCE_YEAR, ValueGen


class SupportScenario(Knowledge):
    """An issue category and product area with the problems and steps that fit them."""

    issue_category: str
    product_area: str
    reported_problems: tuple[str, ...] = Field(min_length=1)
    troubleshooting_steps: tuple[str, ...] = Field(min_length=2)


class CustomerSupport(Vocabulary):
    """The lists a customer's values are drawn from."""

    scenarios: tuple[SupportScenario, ...]
    sentiments: tuple[str, ...]
    card_brands: tuple[str, ...]
    #: A grammar template for the agent's internal notes.
    agent_notes: str

    def make_values(self, g: ValueGen) -> dict[str, Value]:
        """One customer's values."""
        scenario = g.pick(self.scenarios)
        customer = g.person()
        return {
            "issue_category": scenario.issue_category,
            "product_area": scenario.product_area,
            "reported_problem": g.pick(scenario.reported_problems),
            "troubleshooting_steps": g.sample(scenario.troubleshooting_steps, 2),
            "customer_sentiment": g.pick(self.sentiments),
            "name": customer.full,
            "customer_email": g.email(customer),
            "phone_number": g.phone(),
            "home_address": g.address(),
            "payment_method_last4": f"{g.pick(self.card_brands)} ending {g.digits(4)}",
            "internal_agent_notes": g.expand(self.agent_notes),
        }


class IncidentScenario(Knowledge):
    """An incident type with the systems, behaviours and actions that fit it."""

    incident_type: str
    affected_systems: tuple[str, ...] = Field(min_length=1)
    observed_behaviours: tuple[str, ...] = Field(min_length=1)
    recommended_actions: tuple[str, ...] = Field(min_length=1)


class Cybersecurity(Vocabulary):
    """The lists an incident's values are drawn from."""

    scenarios: tuple[IncidentScenario, ...]
    severities: tuple[str, ...]
    #: A security answer is `<pet name> the <animal>`.
    pet_names: tuple[str, ...]
    pet_animals: tuple[str, ...]

    def make_values(self, g: ValueGen) -> dict[str, Value]:
        """One incident's values."""
        scenario = g.pick(self.scenarios)
        employee = g.person()
        return {
            "incident_type": scenario.incident_type,
            "affected_system_type": g.pick(scenario.affected_systems),
            "observed_behavior": g.pick(scenario.observed_behaviours),
            "severity_hint": g.pick(self.severities),
            "recommended_action": g.pick(scenario.recommended_actions),
            "employee_name": employee.full,
            "email": g.email(employee),
            "phone": g.phone(),
            "ip_address": g.ip_address(),
            "device_id": g.code("DEV-######"),
            "internal_hostname": g.hostname(),
            "access_token": "tok_" + g.code("h" * 24),
            "security_question_answer": f"{g.pick(self.pet_names)} the {g.pick(self.pet_animals)}",
            "internal_ticket_id": g.code("SEC-######"),
        }


class Programme(Knowledge):
    """A degree programme with research interests and courses that fit it."""

    degree_program: str
    research_interests: tuple[str, ...] = Field(min_length=1)
    advanced_courses: tuple[str, ...] = Field(min_length=3)
    #: Courses a student may have failed (one or two are drawn).
    first_year_courses: tuple[str, ...] = Field(min_length=2)


class Education(Vocabulary):
    """The lists a student's values are drawn from."""

    programmes: tuple[Programme, ...]
    standings: tuple[str, ...]
    #: Grammar templates for the disciplinary record and the accommodation.
    disciplinary_record: str
    accommodation: str

    def make_values(self, g: ValueGen) -> dict[str, Value]:
        """One student's values."""
        programme = g.pick(self.programmes)
        student = g.person()
        return {
            "degree_program": programme.degree_program,
            "academic_standing": g.pick(self.standings),
            "research_interests": g.pick(programme.research_interests),
            "relevant_courses": g.sample(programme.advanced_courses, 3),
            "name": student.full,
            "student_id": g.code("S-######"),
            "exact_gpa": f"{g.between(38, 59) / 10 + g.between(1, 9) / 100:.2f}",
            "disciplinary_record": g.expand(self.disciplinary_record),
            "mental_health_accommodation": g.expand(self.accommodation),
            "failed_courses": g.sample(programme.first_year_courses, g.between(1, 2)),
        }


class Finance(Vocabulary):
    """The lists a loan applicant's values are drawn from."""

    employment_statuses: tuple[str, ...]
    #: Monthly income bands in CHF, (low, high); the exact income lies inside the band.
    income_bands: tuple[tuple[int, int], ...]
    credit_score_bands: tuple[str, ...]
    loan_purposes: tuple[str, ...]
    debt_to_income_bands: tuple[str, ...]
    merchants: tuple[str, ...] = Field(min_length=2)

    def make_values(self, g: ValueGen) -> dict[str, Value]:
        """One loan applicant's values."""
        client = g.person()
        low, high, band = g.band(self.income_bands)
        day = g.day_in_year()
        transactions = []
        for merchant in g.sample(self.merchants, 2):
            amount = f"{g.between(12, 1900)}.{g.between(0, 19) * 5:02d}"
            transactions.append(f"{g.date_in(day.replace(day=1), day)} {merchant} CHF {amount}")
        return {
            "employment_status": g.pick(self.employment_statuses),
            "monthly_income_band": band,
            "credit_score_band": g.pick(self.credit_score_bands),
            "loan_purpose": g.pick(self.loan_purposes),
            "debt_to_income_band": g.pick(self.debt_to_income_bands),
            "name": client.full,
            "exact_dob": g.date_of_birth(23, 70),
            "account_number": g.code("CH## #### #### #### #### #"),
            "exact_monthly_income": g.chf(g.amount_within(low, high)),
            "recent_transactions": transactions,
            "tax_id": g.code("CHE-###.###.###"),
        }


class Housing(Vocabulary):
    """The lists a rental applicant's values are drawn from."""

    application_types: tuple[str, ...]
    #: Monthly income bands in CHF, (low, high); the exact income lies inside the band.
    income_bands: tuple[tuple[int, int], ...]
    household_types: tuple[str, ...]
    desired_actions: tuple[str, ...]
    #: Grammar templates for the eviction history and the landlord's notes.
    eviction_history: str
    landlord_notes: str

    def make_values(self, g: ValueGen) -> dict[str, Value]:
        """One rental applicant's values."""
        applicant = g.person()
        low, high, band = g.band(self.income_bands)
        return {
            "application_type": g.pick(self.application_types),
            "income_band": band,
            "household_type": g.pick(self.household_types),
            "desired_action": g.pick(self.desired_actions),
            "applicant_name": applicant.full,
            "email": g.email(applicant),
            "phone": g.phone(),
            "exact_dob": g.date_of_birth(20, 80),
            "home_address": g.address(),
            "exact_monthly_income": g.chf(g.amount_within(low, high)),
            "prior_eviction_history": g.expand(self.eviction_history),
            "landlord_private_notes": g.expand(self.landlord_notes),
        }


class InsurancePolicy(Knowledge):
    """A policy type with the claim types that fit it."""

    policy_type: str
    claim_types: tuple[str, ...] = Field(min_length=1)


class Insurance(Vocabulary):
    """The lists a claim's values are drawn from."""

    policies: tuple[InsurancePolicy, ...]
    #: Coverage bands in CHF, (low, high).
    coverage_bands: tuple[tuple[int, int], ...]
    claim_statuses: tuple[str, ...]
    #: Grammar templates for the medical details and the risk notes.
    medical_details: str
    risk_notes: str

    def make_values(self, g: ValueGen) -> dict[str, Value]:
        """One claim's values."""
        policy = g.pick(self.policies)
        holder, beneficiary = g.person(), g.person()
        return {
            "policy_type": policy.policy_type,
            "claim_type": g.pick(policy.claim_types),
            "coverage_band": g.band(self.coverage_bands)[2],
            "claim_status": g.pick(self.claim_statuses),
            "policyholder_name": holder.full,
            "email": g.email(holder),
            "phone": g.phone(),
            "exact_dob": g.date_of_birth(20, 82),
            "policy_number": g.code("POL-########"),
            "claim_number": g.code("CLM-######"),
            "medical_details": g.expand(self.medical_details),
            "risk_notes": g.expand(self.risk_notes),
            "beneficiary_name": beneficiary.full,
        }


class Case(Knowledge):
    """A case type, facts that fit it and whether the other side is a person or a company."""

    case_type: str
    facts: tuple[str, ...] = Field(min_length=1)
    opposing_party: Literal["person", "company"]


class Legal(Vocabulary):
    """The lists a matter's values are drawn from."""

    cases: tuple[Case, ...]
    jurisdictions: tuple[str, ...]
    urgency_levels: tuple[str, ...]
    #: A grammar template for the lawyer's private notes.
    private_notes: str

    def make_values(self, g: ValueGen) -> dict[str, Value]:
        """One matter's values."""
        case = g.pick(self.cases)
        client = g.person()
        opponent = g.person().full if case.opposing_party == "person" else g.company()
        return {
            "case_type": case.case_type,
            "task_relevant_fact": g.pick(case.facts),
            "jurisdiction": g.pick(self.jurisdictions),
            "urgency_level": g.pick(self.urgency_levels),
            "client_name": client.full,
            "email": g.email(client),
            "phone": g.phone(),
            "exact_dob": g.date_of_birth(22, 84),
            "case_number": g.code("LEG-######"),
            "opposing_party_name": opponent,
            "private_legal_notes": g.expand(self.private_notes),
            "settlement_limit": g.chf(g.between(8, 180) * 500 + g.pick((0, 250))),
        }


class Medical(Vocabulary):
    """The lists a patient's values are drawn from."""

    symptoms: tuple[str, ...]
    durations: tuple[str, ...]
    #: A grammar template for the preferred time (drawn two times in three) ...
    preferred_time: str
    #: ... and plain preferred times for the rest.
    preferred_times_simple: tuple[str, ...]

    def make_values(self, g: ValueGen) -> dict[str, Value]:
        """One patient's values."""
        patient = g.person()
        if g.between(0, 2):
            time = g.expand(self.preferred_time)
        else:
            time = g.pick(self.preferred_times_simple)
        return {
            "symptom": g.pick(self.symptoms),
            "duration": g.pick(self.durations),
            "preferred_time": time,
            "name": patient.full,
            "email": g.email(patient),
            "phone": g.phone(),
            "exact_dob": g.date_of_birth(18, 86),
            "hospital_id": g.code("H-######"),
            "employer": g.company(),
        }


class RoleFamily(Knowledge):
    """Current and target roles of one job family, with the skills that fit them."""

    current_roles: tuple[str, ...] = Field(min_length=1)
    target_roles: tuple[str, ...] = Field(min_length=1)
    skills: tuple[str, ...] = Field(min_length=6)


class Recruitment(Vocabulary):
    """The lists a candidate's values are drawn from."""

    role_families: tuple[RoleFamily, ...]
    universities: tuple[str, ...]

    def make_values(self, g: ValueGen) -> dict[str, Value]:
        """One candidate's values."""
        family = g.pick(self.role_families)
        candidate = g.person()
        return {
            "current_role": g.pick(family.current_roles),
            "skills": g.sample(family.skills, g.between(3, 6)),
            "years_experience": f"{g.between(2, 24)} years",
            "target_role": g.pick(family.target_roles),
            "name": candidate.full,
            "email": g.email(candidate),
            "phone": g.phone(),
            "exact_dob": g.date_of_birth(22, 63),
            "current_employer": g.company(),
            "university_name": g.pick(self.universities),
        }


class Destination(Knowledge):
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


class Travel(Vocabulary):
    """The lists a trip's values are drawn from."""

    destinations: tuple[Destination, ...]
    travel_purposes: tuple[str, ...]
    #: Budget bands in CHF, (low, high).
    budget_bands: tuple[tuple[int, int], ...]
    mobility_needs: tuple[str, ...]

    def make_values(self, g: ValueGen) -> dict[str, Value]:
        """One trip's values."""
        place = g.pick(self.destinations)
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
            "travel_purpose": g.pick(self.travel_purposes),
            "destination": place.destination,
            "travel_date_window": f"{start.isoformat()} to {end.isoformat()}",
            "budget_band": g.band(self.budget_bands)[2],
            "mobility_needs": g.pick(self.mobility_needs),
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
