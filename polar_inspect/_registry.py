"""What the `inspect_ai` entry point imports: tasks and model providers."""
