"""Many positions at once: seeded deals to analyse (`deals`)."""
