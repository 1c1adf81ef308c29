resource "google_compute_network" "n" {
  provider = google-beta
}
