from dsl import E

ENTRIES = [
    E("CalendarProviderSpec", "other", "1.0.0", "active", "",
      """Interface for calendar backends: list events, look up free/busy, create, update and
      cancel with idempotency keys, and use IANA names for time zones.""",
      "interface, calendar, spec", "assistants-team", "",
      "- 0 - - -", fmt="yaml", file="manifests/calendar-provider-spec.yaml"),
    E("MeetingScheduler", "agent", "1.0.0", "deprecated", "MeetingRequest -> CalendarEvent",
      """Books meetings by proposing the first common free slot. Ignores every time zone except
      the organiser's.""",
      "meetings, booking, scheduling, legacy", "assistants-team", "",
      "0.66 12400 2025-09-09T10:00 1800 cloud", "dep:GoogleCalendarConnector"),
    E(("MeetingScheduler_v2", "Meeting Scheduler v2"), "agent", "2.1.0", "active", "MeetingRequest -> CalendarEvent",
      """Reads a meeting request, finds slots that suit every attendee's time zone and working
      hours, proposes three options and books the one that gets accepted.""",
      "meetings, scheduling, time zones, booking, assistant", "assistants-team", "",
      "0.90 18900 2026-11-21T13:40 4500 cloud",
      "succ:MeetingScheduler dep:FreeBusyLookup,TimezoneResolver,GoogleCalendarConnector,OutlookCalendarConnector",
      fmt="card", file="cards/meeting-scheduler-v2.md", body="""
## How people use it
Forward or CC the assistant on an email ("can we find 45 minutes next week with Priya and
the Lisbon team?") or call it from chat. It reads who is needed, how long, and any
constraints ("not Friday", "before the board meeting").

## What it does
1. Resolves every attendee's time zone and working hours.
2. Pulls free/busy for all of them and scores candidate slots (fewer early/late hours is
   better, keeps focus-time blocks intact).
3. Proposes three slots in each attendee's local time; books the first one accepted and
   sends the invite.

## Limits
External attendees without shared calendars get a poll link instead. Rooms are not booked;
chain RoomBooker if you need one.
"""),
    E("FreeBusyLookup", "tool", "1.3.0", "active", "List[CalendarEvent] -> Availability",
      """Merges the busy blocks of several calendars into shared free windows, honouring working
      hours and focus time.""",
      "free busy, availability, calendars", "assistants-team", "deterministic",
      "0.97 26400 2026-11-21T13:40 250 cloud"),
    E("TimezoneResolver", "tool", "1.0.0", "active", "",
      """Resolves city names, UTC offsets and abbreviations such as PST or CET to IANA zones and
      converts times between them, aware of daylight saving.""",
      "time zones, iana, dst, conversion", "assistants-team", "deterministic, pure",
      "0.99 33000 2026-11-21T13:40 20 local"),
    E("GoogleCalendarConnector", "tool", "2.0.0", "active", "",
      """Reads and writes Google Calendar events through the API with OAuth, batching updates to
      stay within quota.""",
      "google calendar, connector, oauth", "assistants-team", "requires_network, rate_limited",
      "0.96 29000 2026-11-21T13:40 380 cloud", "impl:CalendarProviderSpec"),
    E("OutlookCalendarConnector", "tool", "1.5.0", "active", "",
      """Microsoft Graph connector for Outlook and Exchange calendars, including room mailboxes
      and shared calendars.""",
      "outlook, exchange, microsoft graph, connector", "assistants-team",
      "requires_network, rate_limited",
      "0.94 17100 2026-11-21T13:40 420 cloud", "impl:CalendarProviderSpec"),
    E("ICSParser", "tool", "1.1.0", "active", "ICalendarFile -> List[CalendarEvent]",
      """Parses .ics files and expands recurrence rules and their exceptions into concrete
      event instances within a window.""",
      "ics, icalendar, rrule, recurrence", "assistants-team", "deterministic",
      "0.98 8400 2026-11-20T09:00 40 local"),
    E("ICSExporter", "tool", "1.0.0", "active", "List[CalendarEvent] -> ICalendarFile",
      """Writes events to an RFC 5545 .ics file that Outlook, Google and Apple Calendar all
      import cleanly.""",
      "ics, export, icalendar", "ToolForge", "deterministic, pure",
      "0.99 3000 2025-11-11T09:00 30 local", "forge:ToolForge"),
    E(("ShiftRosterPlanner", "Shift Roster Planner"), "agent", "1.0.0", "active", "List[Record] -> List[CalendarEvent]",
      """Plans staff shift rosters from availability, skills and labour rules (minimum rest
      between shifts, maximum weekly hours) with a constraint solver.""",
      "shifts, roster, workforce, constraint solver", "ops-tools", "deterministic",
      "0.85 2400 2026-11-20T05:00 21000 local"),
    E("ReminderBot", "agent", "2.2.0", "active", "CalendarEvent -> Notification",
      """Sends reminders before events over Slack, email or SMS, with snooze and 'running late'
      replies.""",
      "reminders, notifications, events", "assistants-team", "",
      "0.97 40800 2026-11-21T15:55 200 cloud", "dep:SlackNotifier,EmailSender,SMSGateway"),
    E("AgendaDrafter", "agent", "1.0.0", "active", "CalendarEvent -> MarkdownText",
      """Drafts a meeting agenda from the invite and the notes of earlier meetings in the
      series, with timings per item.""",
      "agenda, meetings, preparation", "PromptSmith", "",
      "0.86 4300 2026-11-21T08:00 3900 cloud", "forge:PromptSmith"),
    E("RoomBooker", "tool", "1.2.0", "active", "CalendarEvent -> CalendarEvent",
      """Finds and books a meeting room that fits the attendee count and needed equipment, near
      where most attendees sit.""",
      "rooms, booking, office, facilities", "ops-tools", "",
      "0.89 9100 2026-11-21T09:20 900 cloud", "dep:OutlookCalendarConnector"),
    E("DeadlineExtractor", "tool", "1.0.0", "active", "Text -> List[CalendarEvent]",
      """Finds due dates in emails and documents ('by Friday COB', 'within 30 days of
      signature') and turns them into dated events.""",
      "deadlines, due dates, dates, extraction", "assistants-team", "",
      "0.81 6100 2026-11-21T11:00 700 cloud", "dep:TimezoneResolver"),
    E("RecurringMeetingAuditor", "agent", "0.1.0", "experimental", "List[CalendarEvent] -> Report",
      """Looks at recurring meetings and suggests which to shorten or cancel, based on attendance
      and how often they get rescheduled.""",
      "meetings, audit, recurring, productivity", "assistants-team", "",
      "0.60 190 2026-11-02T10:00 2600 cloud"),
    E("CronExpressionHelper", "tool", "1.0.0", "active", "",
      """Explains cron expressions in plain English and writes them from descriptions like
      'every weekday at 7:30'.""",
      "cron, crontab, schedule expressions", "ToolForge", "deterministic",
      "0.96 5600 2026-11-20T10:00 25 local", "forge:ToolForge"),
    E("HolidayCalendarFeed", "dataset", "2026.1.0", "active", "",
      """Public holidays for 120 countries and their regions, 2000 to 2035, refreshed every
      year.""",
      "holidays, dataset, countries", "assistants-team", "",
      "- 11800 2026-11-21T13:40 - -"),
    E("PollScheduler", "agent", "0.9.0", "retired", "MeetingRequest -> CalendarEvent",
      """Created group polls to pick meeting times. Retired when the polling service shut its API
      down.""",
      "polls, meetings, legacy", "assistants-team", "requires_network",
      "0.30 2800 2024-05-30T10:00 1500 cloud"),
    E("TravelTimeEstimator", "tool", "1.0.0", "active", "List[CalendarEvent] -> List[CalendarEvent]",
      """Adds travel buffers before in-person meetings using routing estimates between
      consecutive locations.""",
      "travel time, buffers, commute, maps", "assistants-team", "requires_network",
      "0.88 3300 2026-11-21T07:00 1200 cloud"),
    E("OnCallRotation", "tool", "1.1.0", "active", "-> List[CalendarEvent]",
      """Generates fair on-call rotations from a team list, respecting holidays and swap
      requests, and publishes them as calendar events.""",
      "on-call, rotation, pager schedule", "sre-team", "deterministic",
      "0.97 1900 2026-11-20T10:00 300 local", "dep:HolidayCalendarFeed"),
]
