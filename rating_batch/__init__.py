"""rating_batch: FIDE-exact rating calculations for chess federations' rating officers."""
