"""The template renderer: source document, policy, task and attacker turns from templates."""
