"""The version of atout's machine output (``--json`` of ``solve``, ``evaluate``,
``match``, ``move`` and every ``atout serve`` reply): each such object carries
``"schema_version": SCHEMA_VERSION`` and, on the CLI, ``"schema"`` naming its kind. The
schemas are in docs/schemas/ (described in docs/OUTPUT.md); the version changes when a
field is removed or changes meaning (new fields may appear within a version)."""

SCHEMA_VERSION = 1
