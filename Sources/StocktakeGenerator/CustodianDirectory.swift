/// The people who answer for devices (custodians), by PID, with their departments.
enum CustodianDirectory {
    /// Custodian PIDs and departments; some departments contain commas, as real ones do.
    static let custodians: [(pid: String, department: String)] = [
        ("jharlan", "Network Infrastructure & Services"), ("mokafor", "Network Infrastructure & Services"),
        ("tbrandt", "Facilities, Planning and Operations"), ("slindqvist", "Housing and Residence Life"),
        ("rquintero", "University Libraries"), ("kpatel7", "College of Engineering"),
        ("adesai", "College of Science"), ("lmorrow", "Student Affairs"), ("cnakamura", "Athletics"),
        ("dvoss", "College of Agriculture and Life Sciences"), ("ewhitfield", "Health Sciences"),
        ("fgallo", "School of the Arts"), ("hnguyen3", "Research Computing"), ("iberg", "University Police"),
        ("jcalloway", "Dining Services"), ("kmensah", "College of Architecture, Arts, and Design"),
        ("lferreira", "Veterinary Medicine"), ("mabernathy", "Law School"), ("nsato", "Recreational Sports"),
        ("oreilly2", "Information Technology"), ("pkowalski", "Information Technology"),
        ("qdunn", "Mathematics"), ("rbanerjee", "Physics"), ("sholloway", "Psychology"),
        ("tyamamoto", "Nursing"), ("ukhan", "Journalism and Media"), ("vmarsh", "Geosciences"),
        ("wokonkwo", "Biological Sciences"), ("xli4", "Data Science"), ("yabara", "Chemistry"),
    ]

    /// The usual custodian of devices in a building.
    static func custodian(forBuilding building: Int) -> String {
        custodians[(building * 7) % custodians.count].pid
    }

    /// The department of a custodian.
    static func department(of pid: String) -> String {
        custodians.first { $0.pid == pid }?.department ?? "Information Technology"
    }
}
