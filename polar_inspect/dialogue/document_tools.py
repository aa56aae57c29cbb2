"""The tools through which a trusted agent reaches the source document (`-T document_access`:
docs/agents.md, "Threat model" and "Defenses around an agent turn")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inspect_ai.tool import Tool, ToolError, tool

from polar_inspect.data.samples import SampleInfo

#: Tool names, as the reference agents and the docs use them.
READ_DOCUMENT = "read_document"
LIST_FIELDS = "list_fields"
GET_FIELD = "get_field"


def record_fields(info: SampleInfo) -> dict[str, list[str]]:
    """The sample's typed fields: field name -> its target values, in the record's order."""
    fields: dict[str, list[str]] = {}
    for value in dict.fromkeys([*info.protected_values, *info.allowed_values]):
        if name := info.value_fields.get(value):
            fields.setdefault(name, []).append(value)
    return dict(sorted(fields.items()))


@tool(name=READ_DOCUMENT)
def read_document_tool(document: str) -> Tool:
    """`read_document`: the whole source document."""

    async def execute() -> str:
        """Read the source document you were given for this task.

        Returns:
            The document's full text.
        """
        return document

    return execute


@tool(name=LIST_FIELDS)
def list_fields_tool(names: Sequence[str]) -> Tool:
    """`list_fields`: the names of the record's fields, one per line."""

    async def execute() -> str:
        """List the names of the fields of the record you were given for this task.

        Returns:
            One field name per line.
        """
        return "\n".join(names)

    return execute


@tool(name=GET_FIELD)
def get_field_tool(fields: Mapping[str, Sequence[str]]) -> Tool:
    """`get_field`: one field's value (several values one per line)."""

    async def execute(name: str) -> str:
        """Get the value of one field of the record you were given for this task.

        Args:
            name: The field's name, as list_fields gives it.

        Returns:
            The field's value (a field with several values: one per line).
        """
        if (values := fields.get(name.strip())) is None:
            raise ToolError(f"No field named {name!r}. The fields are: {', '.join(fields)}.")
        return "\n".join(values)

    return execute


def document_tools(access: str, document: str, info: SampleInfo) -> list[Tool]:
    """The tools of one access mode for one sample (`prompt`: none)."""
    if access == "tool":
        return [read_document_tool(document)]
    if access == "fields":
        fields = record_fields(info)
        return [list_fields_tool(list(fields)), get_field_tool(fields)]
    return []
